"""Runs MPD commands through python-mpd2 (the client library Home Assistant uses) and prints
what each returned, as JSON, for the Swift tests (PythonMPDClient.swift).

Usage: mpd2_session.py ADDRESS COMMANDS_JSON
  ADDRESS        host:port, or the path of a Unix socket
  COMMANDS_JSON  a list of [method, arg, ...]: each is called as client.method(*args)

Prints one JSON object per command, in order: {"result": ...} or {"error": "..."}.
Binary answers (albumart, readpicture) are given as their length and SHA-256, never the bytes.
"""
import hashlib
import json
import sys

import mpd


def plain(value):
    if isinstance(value, dict):
        if "binary" in value and isinstance(value["binary"], (bytes, bytearray)):
            data = bytes(value["binary"])
            rest = {k: plain(v) for k, v in value.items() if k != "binary"}
            rest["binary_length"] = len(data)
            rest["binary_sha256"] = hashlib.sha256(data).hexdigest()
            return rest
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return {"binary_length": len(value), "binary_sha256": hashlib.sha256(bytes(value)).hexdigest()}
    return value


def main():
    address, commands = sys.argv[1], json.loads(sys.argv[2])
    client = mpd.MPDClient()
    client.timeout = 20
    if address.startswith("/"):
        client.connect(address)
    else:
        host, port = address.rsplit(":", 1)
        client.connect(host, int(port))
    print(json.dumps({"result": {"mpd_version": client.mpd_version}}), flush=True)
    for command in commands:
        method, args = command[0], command[1:]
        try:
            result = getattr(client, method)(*args)
            print(json.dumps({"result": plain(result)}, ensure_ascii=False), flush=True)
        except mpd.CommandError as error:
            print(json.dumps({"error": str(error)}, ensure_ascii=False), flush=True)
    client.close()
    client.disconnect()


if __name__ == "__main__":
    main()
