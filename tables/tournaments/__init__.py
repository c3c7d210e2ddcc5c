"""Tournaments and game nights: an end-of-game listener and a scheduler over the tables the platform already
plays (:mod:`tables.tournaments.service`), with their draws and scores as pure functions
(:mod:`tables.tournaments.pairing`)."""
