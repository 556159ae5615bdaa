" CoNLL-U: columns are separated by one Tab, so Tab must type a Tab, and the
" blank line that ends each sentence (and the file) must stay.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal noexpandtab
setlocal commentstring=#\ %s
setlocal comments=:#
setlocal nowrap
setlocal fixendofline

let b:undo_ftplugin = "setlocal expandtab< commentstring< comments< wrap< fixendofline<"
