-- *.mlir -> filetype mlir (sourced inside the `filetypedetect` augroup).
if vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ extension = { mlir = 'mlir' } })
else
  vim.cmd('autocmd BufRead,BufNewFile *.mlir setfiletype mlir')
end
