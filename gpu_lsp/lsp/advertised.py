"""What the server advertises to a client that supports everything (the bootstrap answers with it).

Generated from gpu_lsp/lsp/manifest.py by `python -m gpu_lsp.lsp.editor_files --write`; do not edit.
"""

CAPABILITIES: dict = {
    "codeActionProvider": {
        "codeActionKinds": ["quickfix", "refactor.rewrite", "source.fixAll", "source.fixAll.gpu-lint"],
        "resolveProvider": True,
    },
    "codeLensProvider": {
        "resolveProvider": False,
    },
    "completionProvider": {
        "resolveProvider": False,
        "triggerCharacters": ["%", "^", "@", "#", "!", ".", "[", ":", " "],
    },
    "definitionProvider": True,
    "documentFormattingProvider": True,
    "documentHighlightProvider": True,
    "documentRangeFormattingProvider": True,
    "documentSymbolProvider": True,
    "executeCommandProvider": {
        "commands": [
            "gpuLsp.server.fixAll", "gpuLsp.server.runOnGpu", "gpuLsp.server.runLitTest",
            "gpuLsp.server.updateCheckLines", "gpuLsp.server.outlineKernel", "gpuLsp.server.makeAsync",
        ],
    },
    "foldingRangeProvider": True,
    "hoverProvider": True,
    "inlayHintProvider": {
        "resolveProvider": False,
    },
    "positionEncoding": "utf-16",
    "referencesProvider": True,
    "renameProvider": {
        "prepareProvider": True,
    },
    "selectionRangeProvider": True,
    "semanticTokensProvider": {
        "full": True,
        "legend": {
            "tokenModifiers": ["declaration", "definition", "readonly", "async", "defaultLibrary", "documentation"],
            "tokenTypes": [
                "namespace", "type", "class", "enumMember", "function", "macro", "variable", "parameter", "property",
                "label", "keyword", "comment", "string", "number", "decorator",
            ],
        },
        "range": True,
    },
    "signatureHelpProvider": {
        "retriggerCharacters": [","],
        "triggerCharacters": ["(", ","],
    },
    "textDocumentSync": {
        "change": 2,
        "openClose": True,
        "save": {
            "includeText": False,
        },
    },
    "workspace": {
        "fileOperations": {},
        "workspaceFolders": {
            "changeNotifications": True,
            "supported": True,
        },
    },
    "workspaceSymbolProvider": {
        "resolveProvider": False,
    },
}
