" *.conllu is CoNLL-U, also before setup() runs (for plugin managers that
" load the plugin on the conllu filetype). `set`, not `setfiletype`: the
" generic detection may have called a file starting with "#" conf already.
autocmd BufRead,BufNewFile *.conllu if &filetype !=# 'conllu' | set filetype=conllu | endif
