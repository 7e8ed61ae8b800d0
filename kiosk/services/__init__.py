"""Use cases: every write from a phone, the API, the owner's pages or the CLI goes through one of these into the history."""
