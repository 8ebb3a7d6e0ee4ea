-- sequence: The sequence a table's ids come from.
-- Sent: once a table of ids in a process.
-- cardroom.services.hands.sql.sequence_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
SELECT pg_get_serial_sequence(%(table)s, 'id')
