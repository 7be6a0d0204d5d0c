"""A real gpodder.net (mygpo API 2) server on loopback for the sync tests.

Usage: gpodder_api_server.py PORT DATA_DIRECTORY

Mounts gpodder-fastapi-router (a third party's implementation of the mygpo API, not ours) on a
FastAPI app and runs it under uvicorn on 127.0.0.1:PORT, with its SQLite database in
DATA_DIRECTORY/gpodder.db. Prints one line, {"listening": PORT}, to stdout once the database's
tables exist and the socket listens; everything else (uvicorn's log, one line per request) goes to
stderr. Ends on SIGTERM or SIGINT. Needs the venv .build/python312 that `make deps` builds
(scripts/python312-packages.txt).

The port is one the test holds bound but not listening (PortReservation, with SO_REUSEADDR);
asyncio binds its listening socket with SO_REUSEADDR on Linux, so it can listen on it meanwhile.
"""

import asyncio
import json
import logging
import os
import sys
import warnings

import uvicorn
from fastapi import FastAPI
from gpodder_router import GPodderConfig, attach


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: gpodder_api_server.py PORT DATA_DIRECTORY", file=sys.stderr)
        return 2
    port = int(sys.argv[1])
    directory = os.path.abspath(sys.argv[2])
    os.makedirs(directory, exist_ok=True)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    # The router registers its table creation with FastAPI's deprecated on_event; the warning
    # would only fill every failure message's log.
    warnings.filterwarnings("ignore", message=".*on_event is deprecated.*", category=DeprecationWarning)

    config = GPodderConfig(
        database_url=f"sqlite+aiosqlite:///{directory}/gpodder.db",
        base_url=f"http://127.0.0.1:{port}",
        create_tables=True,
        # POST /api/2/auth/USER/register.json is the router's extension to mygpo (the real
        # gpodder.net has no registration API); on by default, said here because the tests need it.
        allow_registration=True,
        # The dashboard (HTML pages, a redirect handler) is not the API under test.
        enable_dashboard=False,
        # Every request with Basic auth checks the password with bcrypt: at the default 12 rounds
        # that is about a quarter of a second a request; 4 (bcrypt's least) keeps tests fast.
        bcrypt_rounds=4,
        # No .env of the working directory; GPODDER_* variables still apply to the fields not set
        # here (GPODDER_DEBUG_ACTIONS_FILE, read by the router itself, logs uploaded actions).
        _env_file=None,
    )
    app = FastAPI(title="Tonearm test gpodder.net server")
    attach(app, config=config)

    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            # uvicorn's own logging config would print its access log to stdout; with None it
            # logs through the root logger above, to stderr, and stdout carries only the line
            # the test waits for.
            log_config=None,
            access_log=True,
            lifespan="on",
            # A client that keeps a connection open must not hold the server past SIGTERM.
            timeout_graceful_shutdown=2,
        )
    )

    async def serve() -> None:
        serving = asyncio.create_task(server.serve())
        # `started` is set after the lifespan's startup (the tables) and after the listening
        # socket is created, so the line never comes before a connection would be accepted.
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if server.started:
            print(json.dumps({"listening": port}), flush=True)
        await serving

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
