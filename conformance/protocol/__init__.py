"""The core-engine/1 wire protocol as data: JSON Schemas for requests, responses and results."""
