-- stack_reviews: The stack reviews of a hand's HS6 holds.
-- Sent: after an HS6 hold.
-- cardroom.services.hands.sql.stack_reviews_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
INSERT INTO cardroom_stackreview
           ("hand_id", "table_id", "session_id", "player_id", "seat", "reported_cents",
            "recorded_cents", "amount_cents", "status", "resolution", "reason",
            "created_at", "hold_transaction_id")
    SELECT "hand_id", "table_id", "session_id", "player_id", "seat", "reported_cents",
           "recorded_cents", "amount_cents", "status", "resolution", "reason",
           "created_at", "hold_transaction_id"
      FROM jsonb_to_recordset(%(reviews)s::jsonb)
        AS r ("hand_id" bigint, "table_id" bigint, "session_id" bigint,
              "player_id" bigint, "seat" smallint, "reported_cents" bigint,
              "recorded_cents" bigint, "amount_cents" bigint, "status" varchar(8),
              "resolution" varchar(16), "reason" varchar(500),
              "created_at" timestamp with time zone, "hold_transaction_id" bigint)
