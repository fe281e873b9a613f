-- MLIR buffers: `//` line comments.
vim.bo.commentstring = '// %s'
vim.bo.comments = '://'
