-- lock: Lock the table ``%(code)s``; read its room, its game, the id and ``xmin`` of its game's policy in force and whether the terminal's key ``%(key)s`` was revoked or expired since it was verified.
-- Sent: every booking; with the read in one round trip once the process knows the table.
-- cardroom.services.hands.sql.lock_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
SELECT t."id", t."code", t."name", t."seats", t."room_id", t."game_id", t."status", t."gaming_day", t."opened_at", t."closed_at", t."created_at",
       r."id", r."code", r."name", r."time_zone", r."currency", r."gaming_day_cutoff_hour", r."language",
       g."id", g."room_id", g."code", g."small_blind_cents", g."big_blind_cents", g."min_buy_in_cents", g."max_buy_in_cents",
       p.id, p.xmin::text, k.revoked, k.expiry_date
  FROM cardroom_table t
  LEFT JOIN cardroom_room r ON r.id = t.room_id
  LEFT JOIN cardroom_game g ON g.id = t.game_id
  LEFT JOIN LATERAL (SELECT id, xmin FROM cardroom_policy
                      WHERE game_id = t.game_id ORDER BY version DESC LIMIT 1) p
         ON true
  LEFT JOIN cardroom_terminalkey k ON k.id = %(key)s
 WHERE t.code = %(code)s
   FOR UPDATE OF t
