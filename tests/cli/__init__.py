"""The command line: where it runs, how it is installed, what it prints."""
