-- policy: The document of the policy version ``%(id)s``.
-- Sent: once a policy version in a process.
-- cardroom.services.hands.sql.policy_sql, exactly as sent (parameters as %(name)s); written by UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
SELECT document FROM cardroom_policy WHERE id = %(id)s
