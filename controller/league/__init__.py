"""A tournament across boxes: one box per room, one hub with the standings,
talking through an MQTT broker (Mosquitto). docs/league.md says how to set
it up, the topics and message formats, and what happens when a part fails.

``tournament`` reads the organiser's TOML file; ``messages`` is the wire
format (versioned, every field checked); ``standings`` turns results into a
table (pure: no network, no clock); ``outbox`` is a box's side (its next
match, its live view and results, from the journals); ``hub`` is the
organiser's side (subscribe, keep, serve the pages)."""
