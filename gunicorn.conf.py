"""gunicorn's settings for every server started from this folder.

No control socket: by default every gunicorn on a machine shares one in the home
folder, so two back offices (two checkouts, a test beside ``make run``) would collide.
"""

control_socket_disable = True
