"""One class per LSP feature, each a `base.LanguageFeature`; the server
lists them in `server.lsp.server.features` and finds one by its class
(`AnnoscoreServer.get_feature`)."""
