"""The classroom service: a tornado application (REST and the websocket ``api/events``).

It runs two ways (docs/classroom-api.md is the protocol): as a JupyterHub-managed service,
``python -m chesskit.classroom.service`` with the hub's environment (identity only from the
hub: API tokens and OAuth), or on the teacher's laptop (``chesskit classroom``,
:mod:`chesskit.classroom.laptop`), where students join with a code and a name.

:class:`Classroom` holds what is shared (the store, who is connected, the push); the handlers
only read requests and write replies.  Every refusal is a 4xx with ``{"error": sentence}`` and
stores nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import secrets
import time
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import tornado.httpserver
import tornado.web
import tornado.websocket
from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated

from chesskit.classroom.rounds import (
    Judged,
    Task,
    exercise_ids,
    from_exercise,
    from_position,
    judge,
    solution,
)
from chesskit.classroom.store import Answer, Member, Round, Store, open_store
from chesskit.errors import ClassroomError, LanguageError
from chesskit.i18n import FALLBACK, normalize_language, t

log = logging.getLogger("chesskit.classroom")

MAX_BODY = 4096
"""The largest request body read (bytes); a larger one gets 413."""
BURST, PER_SECOND = 10, 2.0
"""A student's requests: ``BURST`` at once, then ``PER_SECOND`` (a token bucket)."""
FAILED_JOINS = 10
"""Failed joins a minute from one address before 429 (laptop mode)."""
SOCKETS_PER_USER = 4
"""Open websockets per user; a new one beyond closes the oldest."""
SUMMARY_EVERY = 0.1
"""Seconds between two summaries pushed to the teacher while answers arrive."""
BACKLOG = 2048
"""Connections waiting to be accepted: ten classes answering at once open hundreds together
(with tornado's 128 the others are dropped, and their computers try again a second later)."""
TOKEN_SECONDS = 60
"""How long the hub's answer about an API token is trusted (the hub's client caches as long)."""
NAME_CHARS = 30
"""The longest student name (laptop mode)."""
STATIC = Path(str(resources.files("chesskit"))) / "classroom" / "static"
"""The clients' pages and scripts (served at ``<prefix>static/``)."""
STATUS = {
    "not_signed_in": 401, "not_teacher": 403, "teacher_answers": 403, "not_in_class": 403,
    "wrong_code": 403, "laptop_only": 403, "unknown_round": 404, "no_round": 404,
    "unknown_class": 404, "closed": 409, "not_current": 409, "already_closed": 409,
    "name_taken": 409, "too_large": 413, "slow_down": 429, "store": 503,
}
"""The HTTP status of each refusal; every other code is 400 (the request itself is wrong)."""


@dataclass(frozen=True)
class Identity:
    """Who sent a request: a hub user or a laptop session, and their class."""

    user: str
    role: str  # "teacher" or "student"
    klass: str  # a student's class; the class a teacher addresses
    lang: str | None = None  # the language a laptop student joined with

    @property
    def teacher(self) -> bool:
        """Is this the teacher?"""
        return self.role == "teacher"


@dataclass
class Bucket:
    """A token bucket: ``take`` is False when the sender must wait."""

    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)

    def take(self, *, burst: float = BURST, rate: float = PER_SECOND) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def name_key(name: str) -> str:
    """What makes two names the same name: width, case and spaces do not count.

    >>> name_key(" Ａna ") == name_key("ANA")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def encode(message: dict[str, Any]) -> str:
    """A websocket message as sent.

    >>> encode({"type": "pong"})
    '{"type": "pong"}'
    """
    return json.dumps(message, ensure_ascii=False)


def refuse(code: str, lang: str | None = None, **fields: object) -> ClassroomError:
    """A refusal with its sentence in the language."""
    return ClassroomError(code, t(f"classroom.service_{code}", lang=lang, **fields))


@lru_cache(maxsize=256)
def _task(task_json: str) -> Task:
    return Task.from_json(json.loads(task_json))


@lru_cache(maxsize=256)
def _solution(task_json: str) -> dict[str, Any]:
    return solution(_task(task_json))


@lru_cache(maxsize=8192)
def _judge(task_json: str, text: str) -> Judged:
    return judge(_task(task_json), text)


def round_solution(rnd: Round) -> dict[str, Any]:
    """The solution of a round (computed once per round)."""
    return _solution(rnd.task_json)


def judge_answer(rnd: Round, text: str, lang: str | None) -> Judged:
    """Judge an answer to a round; a class sends the same few texts, each is read once (a
    refusal is read again, to say why in the student's language)."""
    try:
        return _judge(rnd.task_json, text.strip())
    except ClassroomError:
        return judge(_task(rnd.task_json), text, lang=lang)


class Classroom:
    """The service's shared state: the store, the settings, who is connected, the push.

    ``mode`` "hub": ``classes`` are hub groups (``every_user`` puts every non-teacher in the
    first); ``teachers`` is the teachers' group.  ``mode`` "laptop": one class, the join
    ``code`` and the ``teacher_token``.
    """

    def __init__(self, store: Store, *, mode: str, classes: tuple[str, ...] = ("class",),
                 every_user: bool = True, teachers: str = "teachers",
                 code: str = "", teacher_token: str = "") -> None:
        self.store, self.mode, self.classes = store, mode, classes
        self.every_user, self.teachers = every_user, teachers
        self.code, self.teacher_token = code, teacher_token
        self.burst, self.rate = BURST, PER_SECOND
        self.student_url = ""  # laptop: the address students open (shown by the teacher page)
        self.sockets: dict[str, list[EventSocket]] = {}
        self.buckets: dict[str, Bucket] = {}
        self.failed_joins: dict[str, Bucket] = {}
        self.members: set[tuple[str, str]] = set()
        self.known_tokens: dict[str, tuple[float, dict[str, Any]]] = {}
        # the store's state of each class's newest round, kept here (one service per store):
        # an answer and a summary read no SQLite; every change is written first, then kept
        self.newest: dict[str, Round | None] = {}
        self.newest_answers: dict[int, dict[str, Answer]] = {}
        self.joined_count: dict[str, int] = {}
        self._summary_timers: dict[str, asyncio.TimerHandle] = {}
        self._summary_sent: dict[str, float] = {}

    # -- identity ------------------------------------------------------------------------
    def hub_identity(self, model: dict[str, Any], chosen: str | None, lang: str | None
                     ) -> Identity:
        """The identity of a hub user model (its name and groups)."""
        name, groups = str(model["name"]), set(model.get("groups") or ())
        if self.teachers in groups:
            return Identity(name, "teacher", self.chosen_class(chosen, lang))
        klass = next((c for c in self.classes if c in groups), None)
        if klass is None and self.every_user and model.get("kind", "user") == "user":
            klass = self.classes[0]
        if klass is None:
            raise refuse("not_in_class", lang)
        self.joined(klass, name)
        return Identity(name, "student", klass)

    def laptop_identity(self, token: str, chosen: str | None, lang: str | None
                        ) -> Identity | None:
        """The identity of a laptop token: the teacher's or a student's session."""
        if self.teacher_token and hmac.compare_digest(token.encode(),
                                                      self.teacher_token.encode()):
            return Identity("teacher", "teacher", self.chosen_class(chosen, lang))
        member: Member | None = self.store.member_by_token(token)
        return None if member is None else Identity(member.user, "student", member.klass,
                                                    member.lang)

    def chosen_class(self, chosen: str | None, lang: str | None) -> str:
        """The class a teacher addresses: the one named, else the first."""
        if chosen is None or chosen == "":
            return self.classes[0]
        if chosen not in self.classes:
            raise refuse("unknown_class", lang, name=chosen[:NAME_CHARS])
        return chosen

    def joined(self, klass: str, user: str) -> None:
        """Record a hub student as joined (once per process)."""
        if (klass, user) not in self.members:
            self.store.add_member(klass, user)
            self.joined_count.pop(klass, None)
            self.members.add((klass, user))

    def how_many_joined(self, klass: str) -> int:
        """How many students joined the class (counted in the store once per change)."""
        if klass not in self.joined_count:
            self.joined_count[klass] = self.store.joined(klass)
        return self.joined_count[klass]

    def remember_token(self, header: str, model: dict[str, Any]) -> None:
        """Keep what the hub said about an API token for ``TOKEN_SECONDS`` (as the hub's own
        client does), so a class answering at once costs the hub nothing."""
        now = time.monotonic()
        if len(self.known_tokens) > 10_000:
            self.known_tokens = {k: v for k, v in self.known_tokens.items() if v[0] > now}
        self.known_tokens[header] = (now + TOKEN_SECONDS, model)

    def allowed(self, who: Identity) -> bool:
        """Take one request from a student's budget; False: too many (429)."""
        return who.teacher or self.buckets.setdefault(who.user, Bucket(self.burst)).take(
            burst=self.burst, rate=self.rate)

    # -- laptop: joining -----------------------------------------------------------------
    def join(self, code: str, name: str, *, token: str | None, lang: str | None,
             address: str) -> tuple[str, Member]:
        """A student joins the laptop class: (session token, member).  With the token of an
        earlier session it is that student again."""
        if self.mode != "laptop":
            raise refuse("laptop_only", lang)
        if token:
            member = self.store.member_by_token(token)
            if member is not None:
                return token, member
        if not hmac.compare_digest(code.strip().upper().encode(), self.code.encode()):
            bucket = self.failed_joins.setdefault(address, Bucket(tokens=FAILED_JOINS))
            if not bucket.take(burst=FAILED_JOINS, rate=FAILED_JOINS / 60):
                raise refuse("slow_down", lang, seconds=60)
            raise refuse("wrong_code", lang)
        clean = " ".join(unicodedata.normalize("NFKC", name).split())
        if not 1 <= len(clean) <= NAME_CHARS or not clean.isprintable():
            raise refuse("bad_name", lang, limit=NAME_CHARS)
        session = secrets.token_urlsafe(24)
        klass = self.classes[0]
        if not self.store.add_member(klass, clean, key=name_key(clean), token=session,
                                     lang=lang):
            raise refuse("name_taken", lang, name=clean)
        self.joined_count.pop(klass, None)
        return session, Member(klass, clean, lang)

    # -- rounds --------------------------------------------------------------------------
    def latest(self, klass: str) -> Round | None:
        """The class's newest round (open or closed), or None."""
        if klass not in self.newest:
            self.newest[klass] = self.store.latest_round(klass)
        return self.newest[klass]

    def current(self, klass: str) -> Round | None:
        """The class's open round, or None."""
        rnd = self.latest(klass)
        return rnd if rnd is not None and rnd.state == "open" else None

    def round(self, round_id: int) -> Round | None:
        """The round with this id, or None."""
        for rnd in self.newest.values():
            if rnd is not None and rnd.id == round_id:
                return rnd
        return self.store.round(round_id)

    def answers(self, rnd: Round) -> dict[str, Answer]:
        """The round's answers by student (a class's newest round: kept, not read)."""
        kept = self.newest_answers.get(rnd.id)
        if kept is not None:
            return kept
        found = {a.student: a for a in self.store.answers(rnd.id)}
        if self.latest(rnd.klass) == rnd:
            self.newest_answers[rnd.id] = found
        return found

    def _renewed(self, klass: str, round_id: int) -> Round:
        """Keep the round's state as the store has it now (it is the class's newest)."""
        rnd = self.store.round(round_id)
        assert rnd is not None
        old = self.newest.get(klass)
        if old is not None and old.id != rnd.id:
            self.newest_answers.pop(old.id, None)
        self.newest[klass] = rnd
        return rnd

    def open_round(self, klass: str, task: Task) -> Round:
        """Open a round (closing the open one first, with its push) and push it."""
        before = self.current(klass)
        try:
            round_id = self.store.open_round(klass, task.to_json())
        finally:
            self.newest.pop(klass, None)  # read again from the store, whatever happened
        if before is not None:
            self.push_round("round_closed", self.store.round(before.id) or before,
                            self.answers(before))
        rnd = self._renewed(klass, round_id)
        self.newest_answers[rnd.id] = {}
        self.push_round("round_opened", rnd, {})
        self.push_summary(klass, now=True)
        return rnd

    def close_round(self, rnd: Round, lang: str | None) -> Round:
        """Close an open round and push the solution."""
        try:
            closed = self.store.close_round(rnd.id)
        finally:
            self.newest.pop(rnd.klass, None)
        if not closed:
            raise refuse("already_closed", lang, id=rnd.id)
        answers = self.answers(rnd)
        rnd = self._renewed(rnd.klass, rnd.id)
        self.push_round("round_closed", rnd, answers)
        self.push_summary(rnd.klass, now=True)
        return rnd

    def push_round(self, kind: str, rnd: Round, answers: dict[str, Answer]) -> None:
        """Tell the class that a round opened or closed: each socket gets the round as its
        user sees it, each different message encoded once."""
        encoded: dict[tuple[Any, ...], str] = {}
        for sock in self.sockets.get(rnd.klass, ()):
            who = sock.me
            mine = None if who.teacher else answers.get(who.user)
            key = (sock.reply_lang, who.lang, who.teacher, mine and (mine.san, mine.uci))
            if key not in encoded:
                message = self.round_json(rnd, who, answers=answers)
                message["prompt"] = message["prompts"].get(sock.reply_lang, message["prompt"])
                encoded[key] = encode({"type": kind, "round": message})
            sock.send_text(encoded[key])

    def answer(self, who: Identity, round_id: int, text: str, lang: str | None) -> dict[str,
                                                                                        Any]:
        """Read, judge and keep a student's answer; push the ack and the summary."""
        if who.teacher:
            raise refuse("teacher_answers", lang)
        rnd = self.round(round_id)
        if rnd is None or rnd.klass != who.klass:
            raise refuse("unknown_round", lang, id=round_id)
        latest = self.latest(who.klass)
        if latest is not None and latest.id != rnd.id:
            raise refuse("not_current", lang, id=round_id)
        if rnd.state != "open":
            raise refuse("closed", lang, id=round_id)
        judged = judge_answer(rnd, text, lang)
        try:
            self.store.answer(rnd.id, who.user, san=judged.san, uci=judged.uci,
                              correct=judged.correct)
        except ClassroomError as error:  # closed or replaced since the checks above
            if error.code == "store":
                raise
            self.newest.pop(who.klass, None)
            raise refuse(error.code, lang, id=round_id) from None
        self.answers(rnd)[who.user] = Answer(who.user, judged.san, judged.uci, judged.correct)
        reply = {"round": rnd.id, "move": judged.san, "uci": judged.uci}
        ack = None
        for sock in self.sockets.get(who.klass, ()):
            if sock.me.user == who.user and not sock.me.teacher:
                ack = ack or encode({"type": "answer_ack", **reply})
                sock.send_text(ack)
        self.push_summary(who.klass)
        return reply

    # -- what the clients see ------------------------------------------------------------
    def round_json(self, rnd: Round, who: Identity, lang: str | None = None, *,
                   answers: dict[str, Answer] | None = None) -> dict[str, Any]:
        """The round object of the protocol, as ``who`` sees it (``answers``: the round's
        answers by student, when the caller has them already)."""
        task = _task(rnd.task_json)
        code = lang or who.lang or FALLBACK
        mine = None
        if not who.teacher:
            answer = (answers.get(who.user) if answers is not None
                      else self.store.answer_of(rnd.id, who.user))
            mine = None if answer is None else {"move": answer.san, "uci": answer.uci}
        return {"id": rnd.id, "class": rnd.klass, "state": rnd.state, "exercise": task.exercise,
                "fen": task.fen, "turn": "white" if task.fen.split()[1] == "w" else "black",
                "prompt": task.prompts.get(code, task.prompts.get(FALLBACK, "")),
                "prompts": dict(task.prompts), "judged": task.judged, "answer": mine,
                "solution": round_solution(rnd) if rnd.state == "closed" else None}

    def summary(self, rnd: Round) -> dict[str, Any]:
        """What the class answered to a round, for the teacher."""
        answers = sorted(self.answers(rnd).values(), key=lambda a: a.student)
        task = _task(rnd.task_json)
        counts = Counter(a.san for a in answers)
        moves = dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
        connected = {s.me.user for s in self.sockets.get(rnd.klass, ()) if not s.me.teacher}
        return {"round": rnd.id, "class": rnd.klass, "state": rnd.state, "judged": task.judged,
                "joined": self.how_many_joined(rnd.klass), "connected": len(connected),
                "answered": len(answers),
                "correct": sum(bool(a.correct) for a in answers) if task.judged else None,
                "moves": moves, "uci": {a.san: a.uci for a in answers},
                "answers": [{"student": a.student, "move": a.san, "uci": a.uci,
                             "correct": a.correct} for a in answers]}

    def push_summary(self, klass: str, *, now: bool = False) -> None:
        """Send the summary of the class's newest round to its teachers: at once when
        ``now`` or when none went out in the last ``SUMMARY_EVERY`` seconds, else once then."""
        if not any(s.me.teacher for s in self.sockets.get(klass, ())):
            return
        if klass in self._summary_timers and not now:
            return
        wait = self._summary_sent.get(klass, 0.0) + SUMMARY_EVERY - time.monotonic()
        if now or wait <= 0:
            self._send_summary(klass)
        else:
            loop = asyncio.get_running_loop()
            self._summary_timers[klass] = loop.call_later(wait, self._send_summary, klass)

    def _send_summary(self, klass: str) -> None:
        timer = self._summary_timers.pop(klass, None)
        if timer is not None:
            timer.cancel()
        self._summary_sent[klass] = time.monotonic()
        rnd = self.latest(klass)
        if rnd is None:
            return
        message = encode({"type": "summary", "summary": self.summary(rnd)})
        for sock in self.sockets.get(klass, ()):
            if sock.me.teacher:
                sock.send_text(message)

    # -- connections ---------------------------------------------------------------------
    def connect(self, sock: EventSocket) -> None:
        """A websocket opened: keep it (closing the user's oldest beyond the limit), greet it
        with the current round."""
        here = self.sockets.setdefault(sock.me.klass, [])
        mine = [s for s in here if s.me.user == sock.me.user and s.me.role == sock.me.role]
        for old in mine[:max(0, len(mine) + 1 - SOCKETS_PER_USER)]:
            here.remove(old)
            old.close(code=1008, reason="too many connections")
        here.append(sock)
        rnd = self.current(sock.me.klass)
        sock.send({"type": "hello", "user": sock.me.user, "role": sock.me.role,
                   "class": sock.me.klass, "round": None if rnd is None else self.round_json(
                       rnd, sock.me, sock.reply_lang)})
        if sock.me.teacher:
            latest = self.latest(sock.me.klass)
            if latest is not None:
                sock.send({"type": "summary", "summary": self.summary(latest)})
        else:
            self.push_summary(sock.me.klass)

    def disconnect(self, sock: EventSocket) -> None:
        """A websocket closed."""
        here = self.sockets.get(sock.me.klass, [])
        if sock in here:
            here.remove(sock)
            if not sock.me.teacher:
                self.push_summary(sock.me.klass)


# -- handlers ------------------------------------------------------------------------------
class Base(HubOAuthenticated, tornado.web.RequestHandler):  # type: ignore[misc]  # jupyterhub is untyped
    """Shared by every handler: who is asking, in which language, JSON errors."""

    who: Identity | None = None

    def initialize(self) -> None:
        self.room: Classroom = self.settings["classroom"]
        if self.settings.get("hub_auth") is not None:
            self.hub_auth = self.settings["hub_auth"]

    @property
    def lang(self) -> str:
        """The language of replies: ?lang=, the student's own, Accept-Language, else en."""
        asked = [self.get_query_argument("lang", "")]
        if self.who is not None and self.who.lang:
            asked.append(self.who.lang)
        header = self.request.headers.get("Accept-Language", "")
        asked += [part.split(";")[0].strip() for part in header.split(",")]
        for code in asked:
            if code and code != "*":
                try:
                    return normalize_language(code)
                except LanguageError:
                    continue
        return FALLBACK

    def get_current_user(self) -> Identity | None:
        return self.who

    async def identify(self) -> Identity | None:
        """Who sent the request (None: nobody signed in)."""
        chosen = self.get_query_argument("class", None)
        if self.room.mode == "laptop":
            token = self.get_query_argument("token", "")
            header = self.request.headers.get("Authorization", "")
            if header.lower().startswith(("token ", "bearer ")):
                token = header.split(None, 1)[1].strip() if " " in header else ""
            return self.room.laptop_identity(token, chosen, self.lang) if token else None
        header = self.request.headers.get("Authorization", "")
        known = self.room.known_tokens.get(header) if header else None
        if known is not None and known[0] > time.monotonic():
            return self.room.hub_identity(known[1], chosen, self.lang)
        model = await self.hub_auth.get_user(self, sync=False)
        if not model:
            return None
        if self.hub_auth.access_scopes and not self.hub_auth.check_scopes(
                self.hub_auth.access_scopes, model):
            raise refuse("not_in_class", self.lang)
        if header and getattr(self, "_token_authenticated", False) and \
                not self.get_query_argument("token", ""):
            self.room.remember_token(header, model)
        return self.room.hub_identity(model, chosen, self.lang)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None))[1]
        if isinstance(error, ClassroomError):
            message = str(error)
        elif isinstance(error, tornado.web.HTTPError) and error.log_message:
            message = error.log_message
        else:
            message = self._reason
        self.finish({"error": message})

    def send_refusal(self, error: ClassroomError) -> None:
        """Reply to a refused request."""
        if error.code == "store":
            log.error("the classroom store failed: %s", error)
            error = refuse("store_failed", self.lang, reason=str(error))
            error.code = "store"
        self.set_status(STATUS.get(error.code, 400))
        if error.code == "slow_down":
            self.set_header("Retry-After", "1")
        self.finish({"error": str(error)})


class Api(Base):
    """A JSON endpoint: the sender is identified (and rate-limited) before anything else."""

    teacher_only = False

    async def prepare(self) -> None:
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        try:
            if len(self.request.body or b"") > MAX_BODY:
                raise refuse("too_large", self.lang, limit=MAX_BODY)
            self.who = await self.identify()
            if self.who is None:
                if self.request.path.endswith("api/join"):
                    return
                raise refuse("not_signed_in", self.lang)
            if not self.room.allowed(self.who):
                raise refuse("slow_down", self.lang, seconds=1)
            if self.teacher_only and not self.who.teacher:
                raise refuse("not_teacher", self.lang)
        except ClassroomError as error:
            self.send_refusal(error)

    def body(self) -> dict[str, Any]:
        """The request's JSON object (400 for anything else)."""
        try:
            data = json.loads(self.request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise refuse("bad_json", self.lang) from None
        if not isinstance(data, dict):
            raise refuse("bad_json", self.lang)
        return data

    def text_field(self, data: dict[str, Any], name: str, *, required: bool = True,
                   limit: int = 200) -> str | None:
        """A string field of the body."""
        value = data.get(name)
        if value is None:
            if required:
                raise refuse("missing_field", self.lang, field=name)
            return None
        if not isinstance(value, str) or len(value) > limit:
            raise refuse("bad_field", self.lang, field=name,
                         what=t("classroom.service_a_text", lang=self.lang, limit=limit))
        return value

    def round_of_class(self, round_id: str) -> Round:
        """The round with this id in the sender's class (404 otherwise)."""
        assert self.who is not None
        rnd = self.room.round(int(round_id))
        if rnd is None or rnd.klass != self.who.klass:
            raise refuse("unknown_round", self.lang, id=round_id[:12])
        return rnd

    async def run(self, step: Callable[[], Awaitable[None] | None]) -> None:
        """Do one step of a handler, replying to a ClassroomError with its refusal."""
        try:
            done = step()
            if done is not None:
                await done
        except ClassroomError as error:
            self.send_refusal(error)


class Me(Api):
    """``GET api/me``: who the server thinks you are."""

    async def get(self) -> None:
        assert self.who is not None
        reply: dict[str, Any] = {"mode": self.room.mode, "user": self.who.user,
                                 "role": self.who.role, "class": self.who.klass,
                                 "lang": self.lang}
        if self.who.teacher:
            reply["classes"] = list(self.room.classes)
            if self.room.mode == "laptop":
                reply.update(join_code=self.room.code, student_url=self.room.student_url)
        self.finish(reply)


class Exercises(Api):
    """``GET api/exercises`` (teacher): the bank ids a round can be opened from."""

    teacher_only = True

    async def get(self) -> None:
        self.finish({"ids": exercise_ids()})


class Join(Api):
    """``POST api/join`` (laptop): a join code and a name give a session token."""

    async def post(self) -> None:
        def step() -> None:
            data = self.body()
            lang_field = self.text_field(data, "lang", required=False, limit=20)
            lang = None
            if lang_field:
                try:
                    lang = normalize_language(lang_field)
                except LanguageError:
                    lang = None
            header = self.request.headers.get("Authorization", "")
            token = header.split(None, 1)[1].strip() if " " in header else None
            if self.who is not None and self.who.teacher:
                raise refuse("teacher_answers", self.lang)
            session, member = self.room.join(
                self.text_field(data, "code", limit=20) or "",
                self.text_field(data, "name", limit=100) or "",
                token=token, lang=lang or self.lang, address=self.request.remote_ip or "")
            self.finish({"token": session, "user": member.user, "class": member.klass,
                         "role": "student"})
        await self.run(step)


class Rounds(Api):
    """``POST api/rounds`` (teacher): open a round."""

    teacher_only = True

    async def post(self) -> None:
        def step() -> None:
            assert self.who is not None
            data = self.body()
            klass = self.room.chosen_class(self.text_field(data, "class", required=False,
                                                            limit=100), self.lang)
            exercise_id = self.text_field(data, "exercise", required=False, limit=20)
            if exercise_id:
                task = from_exercise(exercise_id, lang=self.lang)
            else:
                fen = self.text_field(data, "fen", required=False, limit=120)
                if not fen:
                    raise refuse("missing_field", self.lang, field="exercise / fen")
                prompt = data.get("prompt")
                if prompt is not None and not (
                        isinstance(prompt, str) and len(prompt) <= 500
                        or isinstance(prompt, dict) and all(
                            isinstance(k, str) and isinstance(v, str) and len(v) <= 500
                            for k, v in prompt.items())):
                    raise refuse("bad_field", self.lang, field="prompt",
                                 what=t("classroom.service_a_text", lang=self.lang, limit=500))
                answers = data.get("answers")
                if answers is not None and not (isinstance(answers, list) and len(answers) <= 40
                                                and all(isinstance(a, str) for a in answers)):
                    raise refuse("bad_field", self.lang, field="answers",
                                 what=t("classroom.service_a_list", lang=self.lang))
                task = from_position(fen, prompt or None, answers=answers or None,
                                     goal=self.text_field(data, "goal", required=False,
                                                          limit=40) or "", lang=self.lang)
            rnd = self.room.open_round(klass, task)
            self.set_status(201)
            self.finish(self.room.round_json(rnd, self.who, self.lang))
        await self.run(step)


class Current(Api):
    """``GET api/rounds/current``: the class's open round."""

    async def get(self) -> None:
        def step() -> None:
            assert self.who is not None
            rnd = self.room.current(self.who.klass)
            if rnd is None:
                raise refuse("no_round", self.lang)
            self.finish(self.room.round_json(rnd, self.who, self.lang))
        await self.run(step)


class OneRound(Api):
    """``GET api/rounds/<id>``: a round of your class (with its solution once closed)."""

    async def get(self, round_id: str) -> None:
        def step() -> None:
            assert self.who is not None
            self.finish(self.room.round_json(self.round_of_class(round_id), self.who,
                                             self.lang))
        await self.run(step)


class Answers(Api):
    """``POST api/rounds/<id>/answers`` (student): answer with a move."""

    async def post(self, round_id: str) -> None:
        def step() -> None:
            assert self.who is not None
            if self.who.teacher:
                raise refuse("teacher_answers", self.lang)
            self.round_of_class(round_id)
            data = self.body()
            text = self.text_field(data, "answer", limit=200) or ""
            self.finish(self.room.answer(self.who, int(round_id), text, self.lang))
        await self.run(step)


class Summary(Api):
    """``GET api/rounds/<id>/summary`` (teacher)."""

    teacher_only = True

    async def get(self, round_id: str) -> None:
        def step() -> None:
            self.finish(self.room.summary(self.round_of_class(round_id)))
        await self.run(step)


class Close(Api):
    """``POST api/rounds/<id>/close`` (teacher)."""

    teacher_only = True

    async def post(self, round_id: str) -> None:
        def step() -> None:
            assert self.who is not None
            rnd = self.room.close_round(self.round_of_class(round_id), self.lang)
            self.finish(self.room.round_json(rnd, self.who, self.lang))
        await self.run(step)


class EventSocket(Base, tornado.websocket.WebSocketHandler):
    """``api/events``: round_opened, round_closed, summary, answer_ack (see the protocol)."""

    async def prepare(self) -> None:
        try:
            self.who = await self.identify()
            if self.who is None:
                raise refuse("not_signed_in", self.lang)
            if not self.room.allowed(self.who):
                raise refuse("slow_down", self.lang, seconds=1)
        except ClassroomError as error:
            self.set_header("Content-Type", "application/json; charset=UTF-8")
            self.send_refusal(error)

    me: Identity
    """Who is connected (set when the connection opens)."""
    reply_lang: str = FALLBACK
    """The language of the prompts sent on this connection."""

    def open(self, *args: str, **kwargs: str) -> None:
        assert self.who is not None
        self.me, self.reply_lang = self.who, self.lang
        self.room.connect(self)

    def on_message(self, message: str | bytes) -> None:
        if len(message) > MAX_BODY:
            return
        try:
            data = json.loads(message)
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(data, dict):
            return
        if data.get("type") == "ping":
            self.send({"type": "pong"})
        elif data.get("type") == "answer":
            self.answer(data)

    def answer(self, data: dict[str, Any]) -> None:
        """An answer sent on the socket, exactly as ``POST api/rounds/<id>/answers`` takes it
        (same checks, same budget); the reply is ``answer_ack`` or ``error``."""
        round_id, text = data.get("round"), data.get("answer")
        try:
            if not self.room.allowed(self.me):
                raise refuse("slow_down", self.lang, seconds=1)
            if not isinstance(round_id, int) or isinstance(round_id, bool):
                raise refuse("bad_field", self.lang, field="round",
                             what=t("classroom.service_a_number", lang=self.lang))
            if not isinstance(text, str) or len(text) > 200:
                raise refuse("bad_field", self.lang, field="answer",
                             what=t("classroom.service_a_text", lang=self.lang, limit=200))
            self.room.answer(self.me, round_id, text, self.lang)
        except ClassroomError as error:
            if error.code == "store":
                log.error("the classroom store failed: %s", error)
                error = refuse("store_failed", self.lang, reason=str(error))
                error.code = "store"
            self.send({"type": "error", "round": round_id, "status": STATUS.get(error.code, 400),
                       "error": str(error)})

    def on_close(self) -> None:
        self.room.disconnect(self)

    def send(self, message: dict[str, Any]) -> None:
        """Send a message; a connection that has gone is dropped quietly."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Send a message encoded by :func:`encode` (once for every socket that gets it)."""
        with contextlib.suppress(tornado.websocket.WebSocketClosedError):
            self.write_message(text)


class Page(Base):
    """A client page (``static/<name>.html``); on a hub, signed-in users only."""

    def initialize(self, name: str) -> None:  # type: ignore[override]
        super().initialize()
        self.page = STATIC / f"{name}.html"

    async def get(self) -> None:
        if self.room.mode == "hub":
            try:
                self.who = await self.identify()
            except ClassroomError as error:
                raise tornado.web.HTTPError(403, str(error)) from None
            if self.who is None:
                self.redirect(self.get_login_url())
                return
            self.xsrf_token  # noqa: B018  (sets the hub's _xsrf cookie for the page's fetches)
        if not self.page.is_file():
            raise tornado.web.HTTPError(404, f"{self.page.name} is not installed.")
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish(self.page.read_bytes())


class Callback(HubOAuthCallbackHandler):  # type: ignore[misc]  # jupyterhub is untyped
    """The end of the hub's OAuth login."""

    def initialize(self) -> None:
        self.hub_auth = self.settings["hub_auth"]


class NotFound(Base):
    """Any other path: 404 with a JSON sentence."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404, "There is no such page.")


def make_app(room: Classroom, *, prefix: str = "/", hub_auth: HubOAuth | None = None,
             site: Path | None = None, cookie_secret: bytes | None = None
             ) -> tornado.web.Application:
    """The tornado application of the classroom under ``prefix`` (``cookie_secret`` signs
    the hub's login cookie: keep it to keep users signed in across restarts)."""
    p = prefix if prefix.endswith("/") else prefix + "/"
    rid = r"(\d{1,12})"
    routes: list[Any] = [
        (p, Page, {"name": "student"}),
        (p + "teacher", Page, {"name": "teacher"}),
        (p + r"static/(.*)", tornado.web.StaticFileHandler, {"path": str(STATIC)}),
        (p + "api/me", Me),
        (p + "api/join", Join),
        (p + "api/rounds", Rounds),
        (p + "api/exercises", Exercises),
        (p + "api/rounds/current", Current),
        (p + f"api/rounds/{rid}", OneRound),
        (p + f"api/rounds/{rid}/answers", Answers),
        (p + f"api/rounds/{rid}/summary", Summary),
        (p + f"api/rounds/{rid}/close", Close),
        (p + "api/events", EventSocket),
    ]
    if hub_auth is not None:
        routes.append((p + "oauth_callback", Callback))
    if site is not None:
        routes.append((p + "site", tornado.web.RedirectHandler, {"url": p + "site/"}))
        routes.append((p + r"site/(.*)", tornado.web.StaticFileHandler,
                       {"path": str(site), "default_filename": "index.html"}))
    return tornado.web.Application(
        routes, classroom=room, hub_auth=hub_auth, default_handler_class=NotFound,
        cookie_secret=cookie_secret or secrets.token_bytes(32),
        websocket_ping_interval=20, websocket_ping_timeout=60)


def serve(app: tornado.web.Application, port: int, address: str = "127.0.0.1"
          ) -> tornado.httpserver.HTTPServer:
    """Listen (bodies beyond the API's limit are still read, so they get a clear 413)."""
    server = tornado.httpserver.HTTPServer(app, max_body_size=64 * MAX_BODY, xheaders=True)
    server.listen(port, address, backlog=BACKLOG)
    return server


def hub_classroom() -> tuple[tornado.web.Application, int, str]:
    """The application as a JupyterHub-managed service, from the hub's environment."""
    classes = tuple(c.strip() for c in os.environ.get("CHESSKIT_CLASSROOM_CLASSES", "")
                    .split(",") if c.strip())
    store, warning = open_store(os.environ.get("CHESSKIT_CLASSROOM_DB", "classroom.sqlite"))
    if warning:
        log.warning(warning)
    room = Classroom(store, mode="hub", classes=classes or ("class",), every_user=not classes,
                     teachers=os.environ.get("CHESSKIT_CLASSROOM_TEACHERS", "teachers"))
    hub_auth = HubOAuth(cache_max_age=60)
    secret = Path(os.environ.get("CHESSKIT_CLASSROOM_DB", "classroom.sqlite") + ".secret")
    try:
        if not secret.exists():
            secret.touch(mode=0o600)
            secret.write_bytes(secrets.token_bytes(32))
        cookie_secret: bytes | None = secret.read_bytes()
    except OSError as error:
        log.warning("%s cannot be kept (%s): users sign in again after a restart", secret,
                    error.strerror)
        cookie_secret = None
    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    app = make_app(room, prefix=os.environ.get("JUPYTERHUB_SERVICE_PREFIX",
                                               "/services/classroom/"), hub_auth=hub_auth,
                   cookie_secret=cookie_secret)
    listen = os.environ.get("CHESSKIT_CLASSROOM_LISTEN") or url.hostname or "127.0.0.1"
    return app, url.port or 80, listen


async def _run_hub() -> None:
    app, port, address = hub_classroom()
    serve(app, port, address)
    log.info("the classroom listens on %s:%s", address, port)
    await asyncio.Event().wait()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="[classroom %(levelname)s] %(message)s")
    asyncio.run(_run_hub())
