"""The box's apps, one module per job; ``controller.cli`` only parses the
command line and calls them. Each ``cmd_*`` takes the parsed arguments and
returns an exit status; errors are ``BuzzerBoxError``s, which ``cli.main``
prints as one line."""
