"""Telling people: e-mail written to an outbox in the transaction of the change it tells
of, and sent by a background sender with retries, never twice."""
