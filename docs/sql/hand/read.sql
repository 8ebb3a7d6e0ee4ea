-- read: Under the table's lock: lock its open sessions and read them, its last hand number, the accounts ``%(codes)s``, ``%(count)s`` ids each for ledger transactions and hands, and ``pools``, the sub-select of the room's jackpot pools the drop's legs are asked with (:func:`cardroom.hooks.jackpot_drop_legs`).
-- Sent: every booking, and again after an HS6 hold or when the ids run out.
-- cardroom.services.hands.sql.read_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
WITH s AS (
    SELECT s.id, s.seat, s.player_id, p.code, s.stack_cents,
           s.must_leave_at IS NOT NULL AS leaving
      FROM cardroom_seatsession s JOIN accounting_player p ON p.id = s.player_id
     WHERE s.table_id = %(table)s AND s.ended_at IS NULL
     ORDER BY s.id FOR UPDATE OF s
)
SELECT (SELECT max(hand_no) FROM cardroom_hand WHERE table_id = %(table)s),
       (SELECT coalesce(json_agg(json_build_array(id, seat, player_id, code,
                                                  stack_cents, leaving)
                                 ORDER BY id),
                        '[]')::text FROM s),
       (SELECT coalesce(json_agg(json_build_array(a.id, a.code, a.type, a.currency, a.non_negative, a.summed, a.balance_cents)), '[]')::text
          FROM accounting_account a WHERE a.code = ANY(%(codes)s::text[])),
       ARRAY(SELECT nextval('public.accounting_transaction_id_seq')
               FROM generate_series(1, %(count)s::integer)),
       ARRAY(SELECT nextval('public.cardroom_hand_id_seq')
               FROM generate_series(1, %(count)s::integer)),
       (SELECT coalesce(json_agg(json_build_array(p.drop_ratio, p.reserve_percent, json_build_array(a.id, a.code, a.type, a.currency, a.non_negative, a.summed, a.balance_cents), json_build_array(r.id, r.code, r.type, r.currency, r.non_negative, r.summed, r.balance_cents)) ORDER BY p.id), '[]')::text FROM jackpots_pool p JOIN accounting_account a ON a.id = p.account_id JOIN accounting_account r ON r.id = p.reserve_account_id WHERE p.room_id = %(room)s AND p.active AND p.drop_ratio > 0)
