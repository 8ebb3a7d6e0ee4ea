-- write: The booking's one write: its ledger transactions and their entries (each entry in the order the postings gave it, so a batch moves every balance through the same steps as posting them one after another), its hands, their seats and exceptions, and the sessions' stacks.
-- Sent: every booking, its COMMIT with it for a hand posted alone.
-- cardroom.services.hands.sql.write_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
WITH ledger_transactions AS (
    INSERT INTO accounting_transaction
           (id, kind, reference, external_id, memo, source, posted_at,
            posted_by_id, xact_id)
    SELECT id, kind, reference, external_id, '', source, posted_at, posted_by, 0
      FROM jsonb_to_recordset(%(ledger_transactions)s::jsonb)
        AS r (id bigint, kind text, reference text, external_id text, source text,
              posted_at timestamptz, posted_by integer)
),
ledger_entries AS (
    INSERT INTO accounting_entry
           (transaction_id, account_id, amount_cents, currency)
    SELECT t, a, c, k
      FROM ROWS FROM (jsonb_to_recordset(%(ledger_entries)s::jsonb)
                      AS (t bigint, a bigint, c bigint, k text))
           WITH ORDINALITY AS r (t, a, c, k, n)
     ORDER BY n
),
hands AS (
    INSERT INTO cardroom_hand
           ("id", "table_id", "hand_no", "game_id", "policy_id", "gaming_day",
            "started_at", "ended_at", "record", "record_hash", "settlement",
            "pot_cents", "rake_cents", "jackpot_drop_cents", "participants", "status",
            "ledger_transaction_id", "source", "created_at")
    SELECT "id", "table_id", "hand_no", "game_id", "policy_id", "gaming_day",
           "started_at", "ended_at", "record", "record_hash", "settlement", "pot_cents",
           "rake_cents", "jackpot_drop_cents", "participants", "status",
           "ledger_transaction_id", "source", "created_at"
      FROM jsonb_to_recordset(%(hands)s::jsonb)
        AS r ("id" bigint, "table_id" bigint, "hand_no" bigint, "game_id" bigint,
              "policy_id" bigint, "gaming_day" date,
              "started_at" timestamp with time zone,
              "ended_at" timestamp with time zone, "record" jsonb,
              "record_hash" varchar(64), "settlement" jsonb, "pot_cents" bigint,
              "rake_cents" bigint, "jackpot_drop_cents" bigint, "participants" smallint,
              "status" varchar(8), "ledger_transaction_id" bigint, "source" varchar(64),
              "created_at" timestamp with time zone)
),
seats AS (
    INSERT INTO cardroom_handseat
           ("hand_id", "seat", "player_id", "session_id", "stack_cents", "put_in_cents",
            "returned_cents", "won_cents", "final_stack_cents", "present", "folded",
            "cards", "description")
    SELECT "hand_id", "seat", "player_id", "session_id", "stack_cents", "put_in_cents",
           "returned_cents", "won_cents", "final_stack_cents", "present", "folded",
           "cards", "description"
      FROM jsonb_to_recordset(%(seats)s::jsonb)
        AS r ("hand_id" bigint, "seat" smallint, "player_id" bigint,
              "session_id" bigint, "stack_cents" bigint, "put_in_cents" bigint,
              "returned_cents" bigint, "won_cents" bigint, "final_stack_cents" bigint,
              "present" boolean, "folded" boolean, "cards" jsonb,
              "description" varchar(120))
),
exceptions AS (
    INSERT INTO cardroom_handexception
           ("hand_id", "kind", "details", "status", "created_at", "resolution")
    SELECT "hand_id", "kind", "details", "status", "created_at", "resolution"
      FROM jsonb_to_recordset(%(exceptions)s::jsonb)
        AS r ("hand_id" bigint, "kind" varchar(24), "details" jsonb,
              "status" varchar(8), "created_at" timestamp with time zone,
              "resolution" varchar(500))
)
UPDATE cardroom_seatsession AS s
   SET stack_cents = v.stack, last_hand_no = v.hand_no
  FROM jsonb_to_recordset(%(stacks)s::jsonb) AS v (id bigint, stack bigint,
                                                   hand_no bigint)
 WHERE s.id = v.id
