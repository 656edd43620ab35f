#!/usr/bin/env python3
"""Classic moves against `perfect` while a large table solves (docs/server.md, "Solved tables").

    python3 crates/lgame-web/examples/solve_while_playing.py target/release/lgame [VARIANT]

Starts `lgame serve` on a free loopback port with a fresh database, plays 200 classic moves
(random legal moves against perfect, a new game when one ends) and times each move request;
then sends 10 analyses of VARIANT's start at once (default `scoring,target=7`, the largest
table the server solves) and, while `/healthz` says a table is solving, goes on playing
classic moves one at a time, timing each. Prints the median, p99 and max of both, when the
analyses were answered, and the table cache's figures.
"""
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

lgame = sys.argv[1]
variant = sys.argv[2] if len(sys.argv) > 2 else "scoring,target=7"
db = tempfile.mkdtemp() + "/solve.db"
server = subprocess.Popen(
    [lgame, "serve", "--addr", "127.0.0.1:0", "--db", db, "--create-limit", "0"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
addr = server.stdout.readline().split("http://")[1].strip()


def request(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://{addr}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=600) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class Player:
    """A person playing random legal moves against perfect, game after game."""

    def __init__(self):
        self.count = 0
        self.new_game()

    def new_game(self):
        status, body = request("POST", "/api/games", {"red": "human", "blue": "perfect"})
        assert status == 201, body
        self.id, self.token = body["id"], body["players"]["red"]["token"]
        self.state = body["state"]

    def move(self):
        """Plays one move; returns the move request's time in ms."""
        if self.state["over"]:
            self.new_game()
        query = urllib.parse.urlencode({"variant": "classic", "position": self.state["position"]})
        _, position = request("GET", f"/api/position?{query}")
        self.count += 1
        mv = position["moves"][(self.count * 7919) % len(position["moves"])]["move"]
        body = {"token": self.token, "ply": self.state["plies"] + 1, "move": mv}
        started = time.perf_counter()
        status, self.state = request("POST", f"/api/games/{self.id}/moves", body)
        elapsed = (time.perf_counter() - started) * 1000
        assert status == 200, self.state
        return elapsed


def show(label, times):
    times = sorted(times)
    p99 = times[max(0, int(len(times) * 0.99) - 1)]
    print(f"{label}: {len(times)} moves, median {statistics.median(times):.2f} ms, "
          f"p99 {p99:.2f} ms, max {times[-1]:.2f} ms")


def solving():
    return request("GET", "/healthz")[1]["tables"]["solving"]


player = Player()
for _ in range(5):
    player.move()  # the classic table is solved by the first game
show("classic moves, no table solving", [player.move() for _ in range(200)])
answered = []


def ask():
    started = time.perf_counter()
    query = urllib.parse.urlencode({"variant": variant, "position": "start"})
    status, _ = request("GET", f"/api/analysis?{query}")
    answered.append((status, time.perf_counter() - started))


askers = [threading.Thread(target=ask) for _ in range(10)]
for asker in askers:
    asker.start()
while solving() == 0:
    time.sleep(0.01)
during = []
while solving() > 0:
    during.append(player.move())
show(f"classic moves while {variant} solves", during)
for asker in askers:
    asker.join()
print(f"10 analyses of {variant} at once: statuses {sorted({s for s, _ in answered})}, "
      f"the last answered after {max(t for _, t in answered):.1f} s; "
      f"tables {request('GET', '/healthz')[1]['tables']}")
server.terminate()
server.wait()
