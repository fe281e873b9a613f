"""Errors answered to the client for what the user asked (a rename clash, a bad graph format) are one log line,
not a traceback: pygls logs every JsonRpcException a handler raises with its stack."""

from __future__ import annotations

import logging

# pygls's logger for a request whose handler raised ("Exception occurred for message ...").
PYGLS_RPC_LOGGER = "pygls.protocol.json_rpc"


class AnsweredErrorFilter(logging.Filter):
    """Turns the record of an error already answered to the client (an `answered` exception:
    pygls's JsonRpcException, given by the server) into one line at INFO, without the stack."""

    def __init__(self, answered: type[BaseException]) -> None:
        super().__init__()
        self.answered = answered

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, self.answered):
            code, message = getattr(exc, "code", "?"), getattr(exc, "message", str(exc))
            record.msg = f"{record.getMessage()}: answered with error {code}: {message}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def quiet_answered_errors(answered: type[BaseException]) -> None:
    """Install the filter on pygls's logger (once)."""
    logger = logging.getLogger(PYGLS_RPC_LOGGER)
    if not any(isinstance(f, AnsweredErrorFilter) for f in logger.filters):
        logger.addFilter(AnsweredErrorFilter(answered))
