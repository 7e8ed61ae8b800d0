"""Only the kiosk's own names and addresses are served (no DNS rebinding).

On main every Host was served (GET 200, POST 201): a web page a player visits could point
its own name at the kiosk and script it from the player's browser. Against the real
`semedori serve`: another site's name gets a clear 400 and nothing is saved; the kiosk's
names (`semedori.local`, the Pi's name, localhost), its addresses and a name the club adds
in semedori.toml are served.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

from harness import Server, game_body, request

from kiosk.config import CONFIG_NAME
from kiosk.store import Store

REFUSED = "This board answers only at its own address"
REFUSED_PL = "Ta tablica odpowiada tylko pod własnym adresem"


def games(home: Path) -> int:
    with Store.open(home) as store:
        return len(store.recent_games(1000))


def own_lan_address() -> str | None:
    """This machine's address on its default route, if it has one (as the wall's QR code finds it)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
    except OSError:
        return None


def test_another_sites_name_is_refused_and_the_kiosks_own_names_and_addresses_are_served(server: Server) -> None:
    port = server.port
    body = json.dumps(game_body(1)).encode()
    as_json = {"Content-Type": "application/json"}
    refused = []
    for host in ("rebind.example.com", f"rebind.example.com:{port}", "semedori.local.evil.example", "", "[::2]"):
        status, _, page = request(server.host, "GET", "/", headers={"Host": host})
        assert status == 400 and REFUSED in page, host
        status, _, answer = request(server.host, "POST", "/api/games", body, {**as_json, "Host": host})
        refused.append(status)
        assert status == 400 and json.loads(answer)["error"]["code"] == "unknown-host", host
    print(f"\nanother site's name: GET 400, POST {sorted(set(refused))}; games saved: {games(server.home)}")
    assert games(server.home) == 0
    status, _, page = request(server.host, "GET", "/", headers={"Host": "rebind.example.com", "Accept-Language": "pl"})
    assert status == 400 and REFUSED_PL in page

    machine = socket.gethostname()
    own = ["semedori.local", f"semedori.local:{port}", "SEMEDORI.LOCAL.", "localhost", f"localhost:{port}"]
    own += [f"127.0.0.1:{port}", f"[::1]:{port}", machine, f"{machine}.local"]
    lan = own_lan_address()
    own += [f"{lan}:{port}"] if lan else []
    for host in own:
        status, _, _ = request(server.host, "GET", "/", headers={"Host": host})
        assert status == 200, host
    status, _, _ = request(server.host, "POST", "/api/games", body, {**as_json, "Host": f"semedori.local:{port}"})
    assert status == 201 and games(server.home) == 1

    # A club that reaches its board by another name adds it in semedori.toml.
    assert request(server.host, "GET", "/", headers={"Host": "go.club.example"})[0] == 400
    settings = server.home / CONFIG_NAME
    settings.write_text(settings.read_text() + '\n[web]\nhosts = ["go.club.example"]\n')
    assert request(server.host, "GET", "/", headers={"Host": "go.club.example:8080"})[0] == 200
