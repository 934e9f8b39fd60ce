"""Durable statements in what a person types, as standalone claims with a scope (DESIGN §5).

Contract: `extract(text, said_on, in_project)` returns the `Statement`s worth remembering in one
prompt, in natural phrasing, not only after trigger words:
  - explicit requests ("remember that …", "note that …", "keep in mind …", "for the record …");
  - preferences and conventions ("always …", "never …", "use X instead of Y", "we use …",
    "I prefer …", "from now on …");
  - facts about the environment, said in passing ("by the way, the metrics collector runs on port
    9102 here", "the collector was moved to 9300 on Monday, please fix the dashboards"): a
    statement about a thing (a service, host, port, version, owner, schedule, release or deploy
    process) with something concrete to say about it;
  - facts about the person ("I am …", "my timezone is …");
  - retractions ("forget that", "that's no longer true", "forget what I said about X").
Questions, requests ("please fix …", "can you …"), reports of what is happening right now ("I'm
seeing a weird error in the logs"), hedges and filler are not statements; a request riding on a
statement is cut off it. Each statement is rewritten to stand alone: filler dropped, relative
dates resolved against the day it was said, "here" dropped (the scope says where).

Scope: `profile` for the person (facts about them, how they like to work with agents, or a rule
said to hold everywhere: "in all my projects"); in a project's session, everything else belongs to
that project (`project`); outside any project, a preference is the person's and a fact is
`general`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from wikimem.dream import dates

MAX_STATEMENT = 300

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`(])|\n+")
_CLAUSE_REQUEST = re.compile(
    r"(?:,|;|\s[-–—])\s*(?:so\s+)?(?:and\s+)?(?:please|can you|could you|would you|pls|let'?s|"
    r"now (?:please )?(?:fix|update|change)|go ahead and|then (?:fix|update))\b.*$",
    re.IGNORECASE,
)
_LEAD_FILLER = re.compile(
    r"^(?:(?:by the way|btw|fyi|oh and|oh|also|and|so|ok(?:ay)?|alright|actually|just so you know|"
    r"heads up|quick note|one more thing|for context|for your information|hey|hi)[,:!]?\s+)+",
    re.IGNORECASE,
)
_EXPLICIT = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep in mind|don'?t forget|for future reference|"
    r"for the record|make a note|take note|memori[sz]e)(?:\s+(?:that|this))?[,:]?\s+"
    r"(?!to\b|what\b|how\b|when\b|where\b|why\b|if\b|whether\b|which\b)(?P<rest>.+)$",
    re.IGNORECASE,
)
_RETRACT_BARE = re.compile(
    r"^(?:please\s+)?(?:forget (?:that|it|this|what I (?:just )?said)|scratch that|never ?mind(?: that)?|"
    r"ignore (?:that|what I (?:just )?said)|that'?s (?:no longer|not) (?:true|the case|right|correct)(?: anymore)?|"
    r"that is (?:no longer|not) (?:true|the case)|disregard that)[.!]?$",
    re.IGNORECASE,
)
_RETRACT_TARGET = re.compile(
    r"^(?:please\s+)?(?:forget (?:about |that |what I said about )|ignore what I said about |"
    r"disregard what I said about )(?P<target>.+)$|"
    r"^(?P<target2>.+?) (?:is|are) no longer (?:true|the case|valid|relevant)$",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:what|why|how|when|where|which|who|whom|whose|is|are|was|were|do|does|did|can|could|"
    r"would|should|will|shall|may|might|have|has|had|any idea|any chance)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|now\s+|then\s+|ok\s+|okay\s+|go ahead and\s+)*"
    r"(?:fix|add|write|create|implement|refactor|run|check|show|explain|tell|find|update|delete|"
    r"remove|rename|look|look into|investigate|debug|try|help|make|build|generate|review|"
    r"summari[sz]e|describe|list|open|read|print|install|upgrade|bump|revert|commit|push|merge|"
    r"deploy|test|move|change|set up|setup|configure|document|search|grep|figure out|can you|"
    r"could you|would you|will you|let'?s|let us|i need you to|i want you to|i'd like you to|"
    r"go|start|stop|continue|keep going|proceed|do)\b",
    re.IGNORECASE,
)
_TRANSIENT = re.compile(
    r"\b(?:i'?m seeing|i am seeing|i see|i'?m getting|i am getting|i got|i get|i'?m having|"
    r"i'?m trying|i am trying|i'?m working on|i'?m going to|i'?ll|i will|i just|i was|"
    r"let me|there'?s (?:a|an|some) (?:error|bug|issue|problem|weird)|weird|strange|odd|"
    r"something (?:is|'s) (?:wrong|off|broken)|is (?:failing|broken|down|flaky)|"
    r"are (?:failing|broken)|doesn'?t work|does not work|not working|isn'?t working|"
    r"can'?t figure|no idea|i think|i guess|i believe|maybe|perhaps|probably|might be|"
    r"not sure|i wonder|seems|looks like|thanks|thank you|great job|nice work|awesome|"
    r"right now|at the moment|currently broken|for now|temporarily|this time|just this once)\b",
    re.IGNORECASE,
)
_NORMATIVE = re.compile(
    r"\b(?:always|never|instead of|rather than|prefer(?:s|red)?|(?:do not|don't|dont) (?:ever )?"
    r"(?:use|add|commit|push|run|call|import|write|put|edit|touch|mock|deploy|merge)|"
    r"stop using|avoid|we use|i use|we're using|we are using|we switched to|we moved to|"
    r"we now use|make sure to|must not|must always|should never|should always|only use|"
    r"from now on|going forward|by default|in (?:the )?future|as a rule|our convention|"
    r"the convention|no longer use|we don'?t use)\b",
    re.IGNORECASE,
)
_IMPERATIVE_RULE = re.compile(
    r"^(?:always|never|don'?t|do not|use|prefer|avoid|keep|put|name|write|run)\b", re.IGNORECASE
)
_REMINDER = re.compile(
    r"^(?:please\s+)?(?:remember|don'?t forget|make sure|be sure) to\b", re.IGNORECASE
)
_ABOUT_ME = re.compile(
    r"^(?:i am (?!seeing|getting|having|trying|working on|going|not sure)|"
    r"i'm (?!seeing|getting|having|trying|working on|going|not sure|done|back|here)|"
    r"my name is|i work (?:at|on|for|as|in)|i live|my (?:role|job|team|timezone|time zone|"
    r"pronouns|email|github|handle|manager|company|employer) (?:is|are)|call me|i speak|"
    r"i'm based|i am based|i'm from|i am from)\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i prefer|i like|i love|i hate|i dislike|i always|i never|i usually|i tend to|my style|"
    r"for me|to me|with me|when you (?:answer|reply|respond|explain|write|talk)|your (?:answers|"
    r"replies|responses|explanations|tone)|(?:answer|reply|respond|explain|talk|write to me|"
    r"summari[sz]e) (?:in|briefly|concisely|tersely|with|without|like)|emojis?|be (?:brief|"
    r"concise|terse|direct)|keep (?:answers|replies|responses) (?:short|brief)|"
    r"in (?:all|every|each) (?:of )?(?:my|our)? ?(?:projects|repos|repositories|codebases|"
    r"javascript repositor(?:y|ies)|python projects)|everywhere|globally|across (?:all )?"
    r"(?:my |our )?(?:projects|repos)|whatever the project|in any project)\b",
    re.IGNORECASE,
)
_FACT_VERB = re.compile(
    r"\b(?:is|are|was|were|runs|run|listens|listen|lives|live|sits|sit|uses|use|moved|migrated|"
    r"switched|deploys|deploy|deployed|is deployed|are deployed|hosted|is hosted|points|point|"
    r"owned|maintained|belongs|happens|happen|scheduled|cut|tagged|released|pinned|requires|"
    r"require|needs|need|expires|expire|rotates|rotate|resets|reset|backs up|backed up|"
    r"stored|kept|called|named|served|serves|goes|go|lands|land|publishes|publish|"
    r"has been|have been|is now|are now|became)\b",
    re.IGNORECASE,
)
_CONCRETE = re.compile(
    r"\d|https?://|`[^`]+`|\b[\w-]+\.(?:internal|local|com|net|org|io|dev|cloud)\b|"
    r"\b[\w.-]+/[\w./-]+|@\w|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"daily|nightly|weekly|monthly|hourly|every)\b|(?-i:\b[A-Z][a-z]+[A-Z]\w*\b)|"
    r"\b(?:ci|cd|make|main|master|trunk|staging|production|prod|changelog|tag|tags|branch|"
    r"release branch|pull request|pr|merge queue|cron|kubernetes|k8s|helm|terraform|docker|"
    r"aws|gcp|azure|s3|redis|postgres|mysql|kafka|grafana|prometheus|datadog|sentry|"
    r"team|owner|on-call)\b",
    re.IGNORECASE,
)
_THING = re.compile(
    r"\b(?:release|releases|deploy|deploys|deployment|deployments|build|builds|ci|pipeline|"
    r"staging|production|prod|server|servers|service|services|database|db|cache|queue|cluster|"
    r"bucket|endpoint|api|collector|exporter|dashboard|dashboards|cron|job|jobs|backup|backups|"
    r"migration|migrations|branch|branches|repo|monorepo|test suite|tests|linter|formatter|docs|"
    r"owner|team|on-call|version|node|python|port|host|hostname|domain|url|token|key|secret|"
    r"certificate|cert|config|env|environment|container|image|registry|vpn|proxy|gateway|"
    r"worker|workers|scheduler|feature flag|flag|schema|table|index|bucket|lambda|function|"
    r"frontend|backend|app|client|sdk|library|package|dependency|dependencies|changelog|"
    r"metrics|logs|logging|alert|alerts|monitoring|runbook|oncall|sla|quota|limit|timeout)\b",
    re.IGNORECASE,
)
_HERE = re.compile(
    r"\s*,?\s*\b(?:here|in this (?:repo|repository|project|codebase|service|app)|"
    r"in our (?:repo|repository|project|codebase))\b(?=\s*[,.;!]|\s*$)",
    re.IGNORECASE,
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_CONJ_RULES = re.compile(
    r"\s*(?:,\s*|\s)(?:and|but)\s+(?=(?:always|never|don'?t|do not|use|prefer|avoid)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Statement:
    """One claim-to-be: `kind` is preference (normative, the person's), convention (normative,
    a project's), fact, about (the person) or retraction; `scope` is profile, project or
    general; `explicit` when the person asked for it to be remembered."""

    kind: str
    text: str
    scope: str
    explicit: bool = False
    target: str = ""  # for a retraction: what to forget ("" = the statement just before)


def sentences(text: str) -> list[str]:
    text = _CODE_BLOCK.sub(" ", text)
    parts = [p.strip(" \t-*>•") for p in _SENTENCE_SPLIT.split(text)]
    return [p for p in parts if 3 <= len(p) <= 600]


def clean(sentence: str, said_on: date | None = None) -> str:
    s = sentence.strip().strip("\"'“”")
    s = re.sub(r"\s+", " ", s)
    s = _LEAD_FILLER.sub("", s)
    s = _HERE.sub("", s)
    s = dates.resolve(s, said_on)
    s = s.strip(" ,;:-–—")
    if len(s) > MAX_STATEMENT:
        s = s[: MAX_STATEMENT - 1].rsplit(" ", 1)[0] + "…"
    if s and s[0].islower():
        s = s[0].upper() + s[1:]
    if s and s[-1] not in ".!?…":
        s += "."
    return s


def _scope(kind: str, sentence: str, in_project: bool) -> str:
    if kind == "about" or _PERSONAL.search(sentence):
        return "profile"
    if in_project:
        return "project"
    return "profile" if kind in ("preference", "convention") else "general"


def _classify(sentence: str) -> str | None:
    """preference/fact/about for a sentence that is a statement, None for anything else."""
    if _ABOUT_ME.match(sentence):
        return "about"
    if _REMINDER.match(sentence):
        return None  # "remember to run the linter" is a task for now
    bare = re.sub(r"^(?:please|pls)\s+", "", sentence, flags=re.IGNORECASE)
    if bare != sentence and _PERSONAL.search(bare) and not _REQUEST.match(bare):
        return "preference"  # "please keep answers short": how to work with the person
    if _NORMATIVE.search(sentence) or _IMPERATIVE_RULE.match(sentence):
        if _REQUEST.match(sentence) and not _NORMATIVE.search(sentence):
            return None
        # "Use the new endpoint" is a task; "use X for Y" with a tool or style is a rule
        if (
            _IMPERATIVE_RULE.match(sentence)
            and not _NORMATIVE.search(sentence)
            and not re.search(r"\b(?:for|with|over|instead|when|in)\b", sentence, re.IGNORECASE)
        ):
            return None
        return "preference"
    if _REQUEST.match(sentence):
        return None
    if _FACT_VERB.search(sentence) and _THING.search(sentence) and _CONCRETE.search(sentence):
        return "fact"
    return None


def _parts(sentence: str) -> list[str]:
    """A sentence as its statements: a request riding on it cut off, two rules joined by "and"
    taken apart."""
    sentence = _CLAUSE_REQUEST.sub("", sentence).strip()
    pieces = _CONJ_RULES.split(sentence)
    return [p.strip(" ,;") for p in pieces if p and p.strip(" ,;")]


def extract(text: str, said_on: date | None = None, in_project: bool = True) -> list[Statement]:
    out: list[Statement] = []
    for raw in sentences(text):
        sentence = _LEAD_FILLER.sub("", raw).strip()
        if not sentence:
            continue
        if _RETRACT_BARE.match(sentence.rstrip(".!")):
            out.append(Statement("retraction", sentence, "project" if in_project else "profile"))
            continue
        m = _RETRACT_TARGET.match(sentence.rstrip(".!"))
        if m:
            target = (m["target"] or m["target2"] or "").strip()
            if target:
                out.append(
                    Statement(
                        "retraction",
                        sentence,
                        "project" if in_project else "profile",
                        target=target,
                    )
                )
                continue
        if sentence.endswith("?") or (_QUESTION_START.match(sentence) and "?" in raw):
            continue
        explicit = False
        m = _EXPLICIT.match(sentence)
        if m:
            sentence, explicit = m["rest"].strip(), True
        for part in _parts(sentence):
            if part.endswith("?") or _TRANSIENT.search(part):
                continue
            kind = _classify(part)
            if kind is None:
                if not explicit or _REQUEST.match(part) or len(part) < 8:
                    continue
                kind = "fact"
            scope = _scope(kind, part, in_project)
            if kind == "preference" and scope == "project":
                kind = "convention"
            text_out = clean(part, said_on)
            if len(text_out) >= 8:
                out.append(Statement(kind, text_out, scope, explicit))
    return out
