"""The auditor's screens: the reports of finished gaming days and months, their
previews and files, and today's open day shown as it stands (BI8)."""
