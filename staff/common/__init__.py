"""What every staff screen shares, whatever its role: signing in and each role's
landing page, the role checks, money as people read and type it, the one
double-submit guard, refusals said in the room's words and the room's facts."""
