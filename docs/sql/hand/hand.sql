-- hand: The hand ``%(hand_no)s`` of the table ``%(table)s``, if it was booked.
-- Sent: a record whose number was booked already (a retry).
-- cardroom.services.hands.sql.hand_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
SELECT h."id", h."table_id", h."hand_no", h."game_id", h."policy_id", h."gaming_day", h."started_at", h."ended_at", h."record", h."record_hash", h."settlement", h."pot_cents", h."rake_cents", h."jackpot_drop_cents", h."participants", h."status", h."ledger_transaction_id", h."source", h."created_at"
  FROM cardroom_hand h
 WHERE h.table_id = %(table)s AND h.hand_no = %(hand_no)s
