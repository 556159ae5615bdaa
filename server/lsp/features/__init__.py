"""One class per LSP feature, each a `server.lsp.feature.LanguageFeature`;
the server is put together from them in `server.lsp.app` and finds one by
its class (`AnnoscoreServer.get_feature`)."""
