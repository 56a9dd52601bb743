"""Whatever a client sends to the match URLs, the answer is a 4xx or a page, never a 500."""

import random

import pytest
from django.test import Client

from games import services

FIELDS = ["version", "card", "cards", "option", "position", "invite_code", "since"]
VALUES = [
    "", "x", "-1", "99999999999999999999", "2C", "QS", "qs", "10H", "None", "1.5",
    "\x00", "ÿ" * 50, "0", "3", "subtract", "add",
]  # fmt: skip
ENDPOINTS = [
    "pass/", "play/", "moon/", "join/", "leave/", "bots/add/", "bots/remove/", "start/",
    "resign/", "", "scores/",
]  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_garbage_at_every_action_never_causes_a_server_error(alice, make_user, seed):
    rng = random.Random(seed)
    bob = make_user("bob")
    clients = []
    for user in (alice, bob):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    active = services.create_match(alice, services.MatchOptions(bots=3))
    open_match = services.create_match(alice, services.MatchOptions(bots=1))
    for _ in range(250):
        match_id = rng.choice([active.pk, open_match.pk, 999_999])
        path = f"/matches/{match_id}/{rng.choice(ENDPOINTS)}"
        data = {}
        for field in rng.sample(FIELDS, rng.randint(0, 4)):
            many = [rng.choice(VALUES) for _ in range(rng.randint(1, 4))]
            data[field] = many if field == "cards" else rng.choice(VALUES)
        client = rng.choice(clients)
        extra = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
        send = client.post if rng.random() < 0.7 else client.get
        response = send(path, data, **extra)
        assert response.status_code < 500, (path, data, extra)
