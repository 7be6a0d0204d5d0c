"""A second gpodder.net client for the sync tests, driven through gPodder's own client library.

Usage: gpodder_client.py SERVER_URL USER PASSWORD DEVICE_ID [COMMAND_JSON]

Runs one command (a JSON object; read from stdin when COMMAND_JSON is absent or "-") as device
DEVICE_ID of USER and prints one JSON object on stdout. A failure prints {"error": "..."} and exits
with 1. The calls are mygpoclient's (api.MygPodderClient, what gPodder itself syncs with), so the
server sees the requests gPodder would send, and an answer gPodder could not parse fails here too.
Needs the venv .build/python312 that `make deps` builds (scripts/python312-packages.txt).

Commands:
  {"command": "update_device", "caption": "...", "type": "mobile"}        -> {"ok": true}
  {"command": "get_devices"}          -> {"devices": [{"id", "caption", "type", "subscriptions"}]}
  {"command": "subscribe", "add": [URL...], "remove": [URL...]}
                                      -> {"timestamp": N, "update_urls": [[old, new]...]}
  {"command": "pull_subscriptions", "since": N}       -> {"add": [...], "remove": [...], "timestamp": N}
  {"command": "upload_actions", "actions": [{"podcast", "episode", "guid", "action", "timestamp",
      "started", "position", "total", "device"}...]}   -> {"timestamp": N}
  {"command": "download_actions", "since": N, "podcast": URL, "device": ID}
                                      -> {"actions": [the server's objects], "timestamp": N}
  {"command": "sync_devices"}         -> the server's {"synchronized": [[...]], "not-synchronized": [...]}
  {"command": "sync_devices", "synchronize": [[ID, ID]...], "stop-synchronize": [ID...]} -> the same

Where this differs from stock mygpoclient 1.10, and why:
  * POST bodies are labelled Content-Type: application/json. mygpoclient labels none, so urllib
    sends application/x-www-form-urlencoded, and FastAPI parses a body as JSON only when it is
    labelled JSON: stock mygpoclient gets 422 from every POST of the router.
  * Credentials are sent with every request. mygpoclient sends them only in answer to a 401 whose
    WWW-Authenticate names a realm (urllib's HTTPBasicAuthHandler ignores a challenge without one),
    and gpodder-fastapi-router answers a bare "Basic": stock mygpoclient, and so gPodder, gets
    Unauthorized from it on every call.
  * Actions carry "guid" (the API has it and AntennaPod sends it; mygpoclient 1.10's EpisodeAction
    has no such field). Fields are passed as given: -1 stays -1, a missing or null field is left out.
    An action without a "device" key gets DEVICE_ID, as gPodder fills in its own device.
  * download_actions prints the server's action objects as they came (guid and all), after
    mygpoclient has parsed them as gPodder would (an action it rejects fails the command).
  * sync_devices is not in mygpoclient: a plain request with urllib and Basic auth.
"""

import base64
import json
import sys
import urllib.error
import urllib.request

from mygpoclient import api
from mygpoclient import json as mygpo_json


class RouterJsonClient(mygpo_json.JsonClient):
    """mygpoclient's JSON client, with the two headers gpodder-fastapi-router needs (see above),
    keeping the last decoded answer so a command can print what the server sent."""

    def __init__(self, username=None, password=None):
        super().__init__(username, password)
        self._authorization = "Basic " + base64.b64encode(f"{username}:{password}".encode("utf-8")).decode("ascii")
        self.last_answer = None

    def _prepare_request(self, method, uri, data):
        request = mygpo_json.JsonClient._prepare_request(method, uri, data)
        request.add_header("Authorization", self._authorization)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def _request(self, method, uri, data, **kwargs):
        self.last_answer = super()._request(method, uri, data, **kwargs)
        return self.last_answer


class GuidEpisodeAction(api.EpisodeAction):
    """mygpoclient's EpisodeAction (its checks, its serialization) with the episode's guid."""

    def __init__(self, *args, guid=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.guid = guid

    def to_dictionary(self):
        d = super().to_dictionary()
        if self.guid is not None:
            d["guid"] = self.guid
        return d


def action_from(d, device_id):
    return GuidEpisodeAction(
        d["podcast"],
        d["episode"],
        d["action"],
        device=d["device"] if "device" in d else device_id,
        timestamp=d.get("timestamp"),
        started=d.get("started"),
        position=d.get("position"),
        total=d.get("total"),
        guid=d.get("guid"),
    )


def sync_devices(server, user, password, command):
    url = f"{server.rstrip('/')}/api/2/sync-devices/{user}.json"
    body = None
    if "synchronize" in command or "stop-synchronize" in command:
        body = json.dumps(
            {
                "synchronize": command.get("synchronize", []),
                "stop-synchronize": command.get("stop-synchronize", []),
            }
        ).encode("utf-8")
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    token = base64.b64encode(f"{user}:{password}".encode("utf-8")).decode("ascii")
    request.add_header("Authorization", f"Basic {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


def run(server, user, password, device_id, command):
    client = api.MygPodderClient(user, password, root_url=server.rstrip("/"), client_class=RouterJsonClient)
    name = command.get("command")
    if name == "update_device":
        client.update_device_settings(device_id, caption=command.get("caption"), type=command.get("type"))
        return {"ok": True}
    if name == "get_devices":
        return {
            "devices": [
                {"id": d.device_id, "caption": d.caption, "type": d.type, "subscriptions": d.subscriptions}
                for d in client.get_devices()
            ]
        }
    if name == "subscribe":
        result = client.update_subscriptions(
            device_id, add_urls=command.get("add", []), remove_urls=command.get("remove", [])
        )
        return {"timestamp": result.since, "update_urls": [list(pair) for pair in result.update_urls]}
    if name == "pull_subscriptions":
        changes = client.pull_subscriptions(device_id, since=command.get("since"))
        return {"add": changes.add, "remove": changes.remove, "timestamp": changes.since}
    if name == "upload_actions":
        actions = [action_from(d, device_id) for d in command.get("actions", [])]
        return {"timestamp": client.upload_episode_actions(actions)}
    if name == "download_actions":
        changes = client.download_episode_actions(
            since=command.get("since"), podcast=command.get("podcast"), device_id=command.get("device")
        )
        return {"actions": client._client.last_answer["actions"], "timestamp": changes.since}
    if name == "sync_devices":
        return sync_devices(server, user, password, command)
    raise ValueError(f"unknown command {name!r}")


def describe(error):
    if isinstance(error, urllib.error.HTTPError):
        body = error.read().decode("utf-8", errors="replace")
        return f"HTTP {error.code}: {body}"
    text = str(error)
    return f"{type(error).__module__}.{type(error).__name__}" + (f": {text}" if text else "")


def main():
    if len(sys.argv) not in (5, 6):
        print(json.dumps({"error": "usage: gpodder_client.py SERVER_URL USER PASSWORD DEVICE_ID [COMMAND_JSON]"}))
        return 2
    server, user, password, device_id = sys.argv[1:5]
    text = sys.argv[5] if len(sys.argv) == 6 and sys.argv[5] != "-" else sys.stdin.read()
    try:
        command = json.loads(text)
        if not isinstance(command, dict):
            raise ValueError("the command is not a JSON object")
        answer = run(server, user, password, device_id, command)
    except Exception as error:  # every failure becomes the one JSON answer
        print(json.dumps({"error": describe(error)}), flush=True)
        return 1
    print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
