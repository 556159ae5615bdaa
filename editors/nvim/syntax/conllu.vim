" CoNLL-U: comments (sent_id, text), then ten Tab-separated columns
" ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC, each its own group so
" colour schemes can tell them apart; Conf= in MISC stands out.
if exists("b:current_syntax")
  finish
endif

syntax match conlluComment "^#.*$" contains=conlluMetaKey
syntax match conlluMetaKey "^#\s*\zs\%(sent_id\|text\|newdoc\%(\s\+id\)\=\|newpar\%(\s\+id\)\=\|text_\w\+\)\ze\s*=\=" contained

" Each column is matched with its Tab; nextgroup chains them in order.
syntax match conlluId "^\d\+\%([-.]\d\+\)\=\t" nextgroup=conlluForm
syntax match conlluForm "[^\t]*\t" contained nextgroup=conlluLemma
syntax match conlluLemma "[^\t]*\t" contained nextgroup=conlluUpos
syntax match conlluUpos "[^\t]*\t" contained nextgroup=conlluXpos
syntax match conlluXpos "[^\t]*\t" contained nextgroup=conlluFeats
syntax match conlluFeats "[^\t]*\t" contained nextgroup=conlluHead
syntax match conlluHead "[^\t]*\t" contained nextgroup=conlluDeprel
syntax match conlluDeprel "[^\t]*\t" contained nextgroup=conlluDeps
syntax match conlluDeps "[^\t]*\t" contained nextgroup=conlluMisc
syntax match conlluMisc "[^\t]*$" contained contains=conlluConf
syntax match conlluConf "\<Conf=[^|]*" contained

highlight default link conlluComment Comment
highlight default link conlluMetaKey PreProc
highlight default link conlluId LineNr
highlight default link conlluUpos Type
highlight default link conlluXpos Type
highlight default link conlluFeats Constant
highlight default link conlluHead Number
highlight default link conlluDeprel Statement
highlight default link conlluDeps Statement
highlight default link conlluMisc Comment
highlight default link conlluConf Special

let b:current_syntax = "conllu"
