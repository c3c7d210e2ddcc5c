"""Schema migrations, applied in order at start; ``PRAGMA user_version`` records how many ran.

Append new scripts; never edit one that has shipped.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: games (snapshot), seats, the action log, lobbies, user settings.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        message_id INTEGER,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        version INTEGER NOT NULL,
        seed TEXT NOT NULL,
        options TEXT NOT NULL,
        state TEXT NOT NULL,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_status ON games (status);
    CREATE INDEX games_thread ON games (thread_id);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        resigned INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats (user_id);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE lobbies (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('challenge', 'open')),
        status TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        host_id INTEGER NOT NULL,
        invitees TEXT NOT NULL,
        accepted TEXT NOT NULL,
        ai INTEGER NOT NULL,
        options TEXT NOT NULL,
        names TEXT NOT NULL,
        expires_at REAL NOT NULL,
        game_id INTEGER REFERENCES games (id)
    );
    CREATE INDEX lobbies_status ON lobbies (status, host_id);
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        notify INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 2: what was last delivered privately per seat (a hand digest, "DMs closed", a turn reminder), so a
    # restart does not send the same private view, closed-DM note or reminder again.
    """
    CREATE TABLE deliveries (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, kind)
    );
    """,
    # 3: lobbies get a version, checked by every write (two clicks at the same moment can no longer
    # overwrite each other), and who closed them (the decliner), so their message can be drawn from the
    # stored state alone.
    """
    ALTER TABLE lobbies ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE lobbies ADD COLUMN closed_by INTEGER;
    """,
    # 4: at the table — a turn clock per game (seconds per decision, 0 = off) and when a game ended, seats
    # that time out (consecutive time-outs, and "away" once the AI plays for an absent player), the clock
    # chosen in a lobby and the game a rematch lobby repeats, and the members following a game.
    """
    ALTER TABLE games ADD COLUMN clock INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN ended_at REAL;
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE lobbies ADD COLUMN clock INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE lobbies ADD COLUMN rematch_of INTEGER REFERENCES games (id);
    CREATE INDEX lobbies_rematch ON lobbies (rematch_of);
    CREATE TABLE followers (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 5: ratings — one row per player, game and scope (a server's id, or 0 for every server together; the
    # game's AI is user 0), and every change a finished game made, written in the same transaction as the
    # game's result. A game's changes are keyed by (game, scope, user): a game can never be rated twice.
    """
    CREATE TABLE ratings (
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (scope, kind, user_id)
    );
    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        scope INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        won INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, scope, user_id)
    );
    CREATE INDEX rating_changes_user ON rating_changes (user_id, scope, kind, at);
    CREATE INDEX games_ended ON games (status, ended_at);
    """,
    # 6: several processes on one database. ``revision`` counts every write to a game or its seats, so a
    # process can tell its cached copy is older than the database's; ``runner`` and ``runner_until`` are the
    # lease of the process that runs the game's AI turns and clocks (see ``tables.cache.GameCache.runs``).
    """
    ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN runner TEXT;
    ALTER TABLE games ADD COLUMN runner_until REAL NOT NULL DEFAULT 0;
    CREATE INDEX games_runner ON games (status, runner_until);
    """,
    # 7: the outbox — every message the bot owes, written in the transaction of the change that causes it
    # and marked done once Discord accepted it, by the process that wrote it (see data/outbox.py); when
    # each member last decided in a game and who decided last (who is notified: tables/attention.py); one
    # open rematch proposal per game (two members proposing it at once make one proposal; proposals
    # doubled before this migration are closed).
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        lane TEXT NOT NULL,
        priority INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        game_id INTEGER REFERENCES games (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed', 'dropped')),
        attempts INTEGER NOT NULL,
        due_at REAL NOT NULL,
        claimed_by TEXT,
        claimed_until REAL NOT NULL,
        created_at REAL NOT NULL,
        done_at REAL,
        result TEXT,
        after_id INTEGER,
        owner TEXT
    );
    CREATE INDEX outbox_due ON outbox (status, due_at);
    CREATE INDEX outbox_lane ON outbox (lane, status, id);
    CREATE INDEX outbox_game ON outbox (game_id, status);
    ALTER TABLE seats ADD COLUMN acted_at REAL;
    ALTER TABLE games ADD COLUMN last_member INTEGER;
    UPDATE lobbies SET status = 'cancelled' WHERE rematch_of IS NOT NULL AND status IN ('open', 'started')
        AND id NOT IN (SELECT MIN(id) FROM lobbies WHERE rematch_of IS NOT NULL AND status IN ('open', 'started')
        GROUP BY rematch_of);
    CREATE UNIQUE INDEX lobbies_one_rematch ON lobbies (rematch_of)
        WHERE rematch_of IS NOT NULL AND status IN ('open', 'started');
    """,
    # 8: how strongly the bot's AI seats play a game (``normal``: the heuristic; ``hard``: the search).
    """
    ALTER TABLE games ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
    ALTER TABLE lobbies ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
    """,
    # 9: languages. A member's Discord language (their private messages follow it, also those sent while
    # they are not interacting), and a server's: the language its members with Manage Server chose for its
    # games' threads (``language``), else the server's own preferred locale as Discord last told it.
    """
    ALTER TABLE users ADD COLUMN locale TEXT;
    CREATE TABLE guilds (
        guild_id INTEGER PRIMARY KEY,
        language TEXT,
        preferred TEXT
    );
    """,
    # 10: when a seat's member took it over (``/games substitute``): their decision's clock starts then, not
    # when the decision began under the player before them.
    """
    ALTER TABLE seats ADD COLUMN seated_at REAL;
    """,
    # 11: a calm thread (tables/turns.py): the live board of the game's turn as the commit left it (``turn``),
    # and the number of the board whose message ``message_id`` is (``board_turn``), set when it is posted.
    """
    ALTER TABLE games ADD COLUMN turn TEXT;
    ALTER TABLE games ADD COLUMN board_turn INTEGER NOT NULL DEFAULT 0;
    """,
    # 12: servers the bot left, whose data is erased once their grace period is over unless it is back before
    # (``TABLES_FORGET_SERVER_AFTER``; see data/privacy.py).
    """
    CREATE TABLE departures (
        guild_id INTEGER NOT NULL,
        left_at REAL NOT NULL,
        erase_at REAL NOT NULL,
        PRIMARY KEY (guild_id)
    );
    """,
    # 13: tournaments — one per sign-up (its game, format, table size, options, clock, start, seed for its
    # draws), its entrants (``dropped``: left, or away a whole game: not drawn again), each round drawn (the
    # primary key: a round is drawn once, whichever process ends its last game) and each table of a round
    # with the game it became (none for a bye) and the points it gave; a server may let every member
    # organize tournaments.
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        event_id INTEGER,
        host_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('swiss', 'round-robin')),
        rounds INTEGER NOT NULL,
        table_size INTEGER NOT NULL,
        options TEXT NOT NULL,
        clock INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL DEFAULT 0,
        seed TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        ended_at REAL
    );
    CREATE INDEX tournaments_status ON tournaments (status, guild_id);
    CREATE TABLE entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined_at REAL NOT NULL,
        dropped INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        drawn_at REAL NOT NULL,
        PRIMARY KEY (tournament_id, round)
    );
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game_id INTEGER REFERENCES games (id),
        players TEXT NOT NULL,
        points TEXT,
        PRIMARY KEY (tournament_id, round, table_no)
    );
    CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables (game_id) WHERE game_id IS NOT NULL;
    ALTER TABLE guilds ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
    """,
)
