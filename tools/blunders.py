#!/usr/bin/env python3
"""Counts the doctrine AI's blunders in games hexwar plays, from `hexwar run --json` events.

Issue #32 lists what the doctrine AI did wrong, tried as a new user would; this script counts
each of those mistakes, game by game, so that a change of the AI can show it makes them no more.
It plays games 0..N-1 of `hexwar batch --seed S` one at a time (`hexwar run --game I --json`),
follows the position through the events (the scenario's start, then every event that moves,
boards or destroys a unit), and counts, per side:

  lone      a unit that moved this turn and ends its side's turn alone in its hex (passengers
            aside) next to enemy units with two or more assault factors between them: fed forward
            one at a time next to the enemy's stacks. Units that assaulted this turn are left
            out (where an assault leaves its attackers is the dice's doing).
  exposed   an HQ that is not a hero, an air-defence vehicle or an empty transport ends its side's
            turn next to an enemy unit with an assault factor, with no friendly unit with an
            assault factor in its hex: walked into the enemy's reach.
  hq_ad_lost  HQs (not heroes) and air-defence vehicles destroyed or captured (an outcome, not
            always a mistake; reported beside the others).
  futile    a shot (`Fired`), bombardment or air strike whose chance of doing anything is
            below 10%: the chance of at least one die scoring a hit that is not saved and, on
            an HQ, that also rolls the 1 that hurts it (R6.2, R6.3, R6.5, R8.2); a bombardment
            or air strike counts its dice on every unit of the hex together. Firing gives up
            going to ground (R6.4).
  left_out  infantry aboard a transport next to an assaulted hex (or aboard an attacker) that
            the assault leaves out, unless it already assaulted this turn or is disorganized or
            pinned: assaults without the mounted infantry.
  not_held  an objective the attacker stands on at the end of its turn with an enemy unit next
            to it, so that it does not hold it (R17.1), once per objective and game.
  bogged    vehicles bogged by their own side's moves in its movement phase (R5.6).

Usage:
  tools/blunders.py SCENARIO [--runs N] [--seed S] [--ai SIDE=AI ...] [--hexwar PATH] [--json]

Needs Python 3.11 (tomllib) and a built hexwar (default target/release/hexwar).
"""

import argparse
import json
import os
import subprocess
import sys
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUTILE = 0.10
KINDS = ["lone", "exposed", "hq_ad_lost", "futile", "left_out", "not_held", "bogged"]


def axial(label):
    """R0.4: a CCRR label as hexmap's axial coordinate (odd label columns sit lower)."""
    c = int(label[: len(label) // 2]) - 1
    r = int(label[len(label) // 2 :]) - 1
    return (c, r - (c + (c & 1)) // 2)


def distance(a, b):
    (ax, ay), (bx, by) = axial(a), axial(b)
    dx, dy = ax - bx, ay - by
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


def load_catalog():
    types = {}
    folder = os.path.join(ROOT, "data", "units")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".toml"):
            with open(os.path.join(folder, name), "rb") as f:
                for t in tomllib.load(f)["types"]:
                    types[t["id"]] = t
    return types


def load_terrain():
    with open(os.path.join(ROOT, "data", "terrain.toml"), "rb") as f:
        return {t["letter"]: t for t in tomllib.load(f)["terrain"]}


class Scenario:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.raw = tomllib.load(f)
        letters = load_terrain()
        self.terrain = {}
        rows = self.raw["map"].get("terrain", [])
        default = self.raw["map"].get("default", "clear")
        by_id = {t["id"]: t for t in letters.values()}
        for r, row in enumerate(rows):
            for c, letter in enumerate(row.split()):
                self.terrain[f"{c + 1:02}{r + 1:02}"] = letters[letter]
        self.default = by_id[default]
        self.objectives = [o["at"] for o in self.raw.get("objectives", [])]
        self.roles = {s["id"]: s.get("role", "attacker") for s in self.raw["sides"]}
        self.formation_side = {f["id"]: f["side"] for f in self.raw.get("formations", [])}

    def terrain_at(self, hex_):
        return self.terrain.get(hex_, self.default)


class Position:
    """Where each unit is: a hex, aboard a transport, off the map, or gone."""

    def __init__(self, scenario, header, catalog):
        self.catalog = catalog
        self.scenario = scenario
        self.side = {u["id"]: u["side"] for u in header["units"]}
        self.type = {u["id"]: u["type"] for u in header["units"]}
        self.hex = {}
        self.aboard = {}
        # Units shaken (disorganized or pinned), which may not assault (R5.3).
        self.shaken = {}
        for u in scenario.raw["units"]:
            if "at" in u:
                self.hex[u["id"]] = u["at"]
            if "aboard" in u:
                self.aboard[u["id"]] = u["aboard"]
            if u.get("dismounted"):
                self.type[u["id"]] = catalog[u["type"]]["dismounts_to"]

    def typ(self, unit):
        return self.catalog[self.type[unit]]

    def where(self, unit):
        if unit in self.aboard:
            return self.hex.get(self.aboard[unit])
        return self.hex.get(unit)

    def gone(self, unit):
        self.hex.pop(unit, None)
        self.aboard.pop(unit, None)

    def standing(self, hex_, side):
        """Units of `side` standing in `hex_` (passengers aside)."""
        return [
            u
            for u, h in self.hex.items()
            if h == hex_ and self.side[u] == side and u not in self.aboard
        ]

    def passengers(self, transport):
        return [p for p, t in self.aboard.items() if t == transport]

    def apply(self, e):
        kind = e["event"]
        if kind == "Moved" and e["path"]:
            self.hex[e["unit"]] = e["path"][-1]
        elif kind in ("BrokeOff", "Disengaged") and e["path"]:
            self.hex[e["unit"]] = e["path"][-1]
        elif kind == "Retreated":
            self.hex[e["unit"]] = e["to"]
        elif kind == "Consolidated":
            self.hex[e["unit"]] = e["to"]
        elif kind in ("Occupied", "Arrived", "AmbushPlaced", "Joined"):
            self.hex[e["unit"]] = e["hex"]
        elif kind == "OverrunEnded":
            self.hex[e["unit"]] = e["at"]
        elif kind == "Mounted":
            self.aboard[e["unit"]] = e["transport"]
            self.hex.pop(e["unit"], None)
        elif kind == "Dismounted":
            self.aboard.pop(e["unit"], None)
            self.hex[e["unit"]] = e["hex"]
        elif kind == "RidersDismounted":
            self.type[e["unit"]] = self.typ(e["unit"])["dismounts_to"]
        elif kind == "Remounted":
            original = [t for t, v in self.catalog.items() if v.get("dismounts_to") == self.type[e["unit"]]]
            if original:
                self.type[e["unit"]] = original[0]
        elif kind == "HitTaken" and e.get("effect") in ("Disorganized", "Weakened"):
            self.shaken.setdefault(e["unit"], set()).add("Disorganized")
        elif kind == "Pinned":
            self.shaken.setdefault(e["unit"], set()).add("Pinned")
        elif kind == "RallyTest" and e["passed"]:
            self.shaken.get(e["unit"], set()).discard(e["marker"])
        elif kind == "Recovered":
            self.shaken.get(e["unit"], set()).discard("Disorganized")
        elif kind in ("Captured", "NoRetreat"):
            self.gone(e["unit"])
        elif kind in ("HitTaken", "HqHit") and e.get("effect") == "Destroyed":
            self.gone(e["unit"])


def is_hq(t):
    return t["class"] == "hq"


def is_air_defence(t):
    # A vehicle with neither an assault factor, indirect fire, a spotter's role nor room for
    # passengers, that is not recon: the SA-9, the Vulcan, the Chaparral.
    return (
        t["class"] == "vehicle"
        and "assault" not in t
        and not t.get("fire", {}).get("indirect", False)
        and not t.get("observer", False)
        and not t.get("transport", 0)
        and not t.get("recon", False)
    )


def is_soft(pos, unit):
    """An HQ that is not a hero, an air-defence vehicle or a transport with nobody aboard."""
    t = pos.typ(unit)
    empty_transport = (
        t["class"] == "vehicle" and t.get("transport", 0) and not t.get("recon")
        and not pos.passengers(unit)
    )
    return (is_hq(t) and not t.get("hero")) or is_air_defence(t) or bool(empty_transport)


def chance(need):
    need = min(max(need, 2), 6)
    return (7 - need) / 6


def save_number(pos, unit):
    """R6.3, R6.5: the number a target saves on where it stands."""
    t = pos.typ(unit)
    save = t["save"]
    if t["class"] == "vehicle" and t.get("recon") and not t.get("armored"):
        return 3
    hex_ = pos.where(unit)
    if hex_ and t["class"] in ("infantry", "gun", "hq") and pos.scenario.terrain_at(hex_).get("cover"):
        save -= 1
    return save


def count_game(scenario, catalog, lines):
    header = lines[0]
    pos = Position(scenario, header, catalog)
    counts = {s: Counter() for s in scenario.roles}
    side_now = None
    moved, assaulted = set(), set()
    not_held_seen = set()
    phase = None
    last_mover = None
    # A shot, bombardment or air strike under way: its side, its chance of doing nothing, and
    # for a shot its firer and target.
    volley = None
    for e in lines[1:]:
        if "event" not in e:
            continue
        kind = e["event"]
        if kind in ("PhaseStarted", "TurnEnded", "TurnStarted", "Bombarded", "AirStrike"):
            volley = close(volley, counts)
        if kind == "TurnStarted":
            side_now = e["side"]
            moved, assaulted = set(), set()
        elif kind == "PhaseStarted":
            phase = e["phase"]
        elif kind in ("Fired", "AirAttack"):
            target = e["target"]
            p = chance(e["roll"]["need"]) * (1 - chance(save_number(pos, target)))
            if is_hq(pos.typ(target)):
                p /= 6
            none = (1 - p) ** len(e["roll"]["dice"])
            if kind == "Fired" and not pos.typ(e["unit"]).get("fire", {}).get("indirect"):
                # A shot at a recon unit that disengages (R15.5) comes as two `Fired`: the
                # first die, then the rest; they are one shot.
                if volley is not None and volley[2] == (e["unit"], target):
                    volley[1] *= none
                else:
                    volley = close(volley, counts)
                    volley = [pos.side[e["unit"]], none, (e["unit"], target), p]
            elif volley is not None:
                volley[1] *= none
        elif kind == "ShotsLost" and volley is not None and volley[2] == (e["unit"], e["target"]):
            # The rest of a shot at a recon unit that disengaged out of reach (R15.5): the firer
            # chose the shot with these dice too.
            volley[1] *= (1 - volley[3]) ** e["dice"]
        elif kind == "Bombarded" and not e["smoke"]:
            volley = close(volley, counts)
            volley = [pos.side[e["unit"]], 1.0, None, 0.0]
        elif kind == "AirStrike":
            volley = close(volley, counts)
            volley = [e["side"], 1.0, None, 0.0]
        elif kind == "AssaultDeclared":
            attackers = set(e["attackers"])
            side = pos.side[e["attackers"][0]]
            for p, tr in pos.aboard.items():
                # A passenger that already assaulted this turn may not again (R9.1), nor may a
                # shaken one (R5.3).
                if pos.side[p] != side or p in attackers or p in assaulted or pos.shaken.get(p):
                    continue
                at = pos.hex.get(tr)
                if at and (tr in attackers or distance(at, e["hex"]) == 1):
                    counts[side]["left_out"] += 1
            assaulted |= attackers
        elif kind == "BogCheck" and e["bogged"] and phase == "Movement":
            if last_mover == e["unit"] and pos.side[e["unit"]] == side_now:
                counts[side_now]["bogged"] += 1
        if kind in ("HitTaken", "HqHit", "Captured", "NoRetreat"):
            destroyed = kind in ("Captured", "NoRetreat") or e.get("effect") == "Destroyed"
            t = pos.typ(e["unit"])
            if destroyed and ((is_hq(t) and not t.get("hero")) or is_air_defence(t)):
                counts[pos.side[e["unit"]]]["hq_ad_lost"] += 1
        if kind == "Moved" and phase == "Movement":
            moved.add(e["unit"])
            last_mover = e["unit"]
        elif kind != "BogCheck":
            last_mover = None
        pos.apply(e)
        if kind == "TurnEnded":
            side = e["side"]
            end_of_turn(scenario, pos, side, moved, assaulted, counts[side], not_held_seen)
    return counts


def close(volley, counts):
    """Ends a shot, bombardment or air strike: futile when all its dice together had less than
    a 10% chance of doing anything."""
    if volley is not None and 1 - volley[1] < FUTILE:
        counts[volley[0]]["futile"] += 1
    return None


def fighters_next_to(pos, hex_, enemy):
    """The enemy units with an assault factor in or next to `hex_`, and their assault dice."""
    units = [
        u
        for u, h in pos.hex.items()
        if pos.side[u] == enemy and u not in pos.aboard and distance(h, hex_) == 1
    ]
    fighting = [u for u in units if "assault" in pos.typ(u)]
    return fighting, sum(pos.typ(u)["assault"] for u in fighting)


def end_of_turn(scenario, pos, side, moved, assaulted, c, not_held_seen):
    enemy = [s for s in scenario.roles if s != side][0]
    for unit, hex_ in list(pos.hex.items()):
        if pos.side[unit] != side or unit in pos.aboard:
            continue
        t = pos.typ(unit)
        near, dice = fighters_next_to(pos, hex_, enemy)
        stack = pos.standing(hex_, side)
        if unit in moved and unit not in assaulted and len(stack) == 1 and dice >= 2:
            c["lone"] += 1
        if is_soft(pos, unit) and near and not any(
            "assault" in pos.typ(u) and not is_soft(pos, u) for u in stack if u != unit
        ):
            c["exposed"] += 1
    if scenario.roles[side] == "attacker":
        for i, o in enumerate(scenario.objectives):
            if pos.standing(o, side) and any(
                pos.side[u] == enemy and distance(h, o) <= 1 for u, h in pos.hex.items()
            ):
                if i not in not_held_seen:
                    not_held_seen.add(i)
                    c["not_held"] += 1


def run_game(hexwar, scenario_path, seed, game, ais):
    cmd = [hexwar, "run", scenario_path, "--seed", str(seed), "--game", str(game), "--json"]
    for a in ais:
        cmd += ["--ai", a]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ai", action="append", default=[], help="SIDE=AI, as hexwar run takes it")
    ap.add_argument("--hexwar", default=os.path.join(ROOT, "target", "release", "hexwar"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    scenario = Scenario(a.scenario)
    catalog = load_catalog()
    totals = {s: Counter() for s in scenario.roles}
    with ThreadPoolExecutor(a.jobs) as pool:
        games = pool.map(lambda i: run_game(a.hexwar, a.scenario, a.seed, i, a.ai), range(a.runs))
        for lines in games:
            for s, c in count_game(scenario, catalog, lines).items():
                totals[s].update(c)
    if a.json:
        print(json.dumps({"scenario": a.scenario, "runs": a.runs, "seed": a.seed, "ai": a.ai,
                          "per_side": {s: {k: totals[s][k] for k in KINDS} for s in totals}}))
        return
    print(f"{a.scenario}: {a.runs} games, seed {a.seed}, {' '.join(a.ai) or 'the scenario AIs'}")
    print(f"  {'SIDE':<10}" + "".join(f"{k:>11}" for k in KINDS))
    for s in totals:
        print(f"  {s:<10}" + "".join(f"{totals[s][k]:>11}" for k in KINDS))


if __name__ == "__main__":
    sys.exit(main())
