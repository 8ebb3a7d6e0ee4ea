"""The staff screens' old addresses, sent for good to where the screens are now:
a bookmark or a printed link keeps working. Included by the project's root URLs
beside the screens, each under its old name."""
