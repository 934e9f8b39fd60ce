"""Durable statements in what a person types, as standalone claims with a scope (DESIGN §5).

Contract: `extract(text, said_on, in_project)` returns the `Statement`s worth remembering in one
prompt, in natural phrasing, not only after trigger words:
  - explicit requests ("remember that …", "note that …", "keep in mind …", "for the record …");
  - preferences and conventions ("always …", "never …", "use X instead of Y", "we use …",
    "I prefer …", "we dropped X", "I format everything with Y");
  - facts about the environment, said in passing ("by the way, the metrics collector runs on port
    9102 here", "the collector was moved to 9300 on Monday, please fix the dashboards"): a
    statement about a thing with something concrete to say about it (a host, port, path, URL,
    version, time, name, command);
  - facts about the person ("I am …", "my timezone is …") and their habits ("I review pull
    requests only in the afternoon");
  - retractions ("forget that", "that's no longer true, we removed …", "scratch what I said
    about X"), with what they name and what is true instead.
Questions, requests ("please fix …", ", update the connection strings", ", so drop the
polyfills"), reports of what is happening right now ("I'm seeing a weird error", "I'm stuck"),
commentary ("that's why your test failed", "it's already changed"), hedges and filler are not
statements; a request riding on a statement is cut off it. A sentence holding two claims is taken
apart ("the warehouse lives at A, use the readonly user"; "the alpha script logs to X and reads
its settings from Y" → two claims about the alpha script). Each statement is rewritten to stand
alone: filler and labels dropped, relative dates resolved against the day it was said, "here",
"now" and "from now on" dropped (the scope and the provenance say where and when).

Scope: `profile` for the person (facts about them, their habits, how they like to work with
agents, or a rule said to hold everywhere: "in all my projects", "for all JS projects"); in a
project's session, everything else belongs to that project (`project`); outside any project, a
preference is the person's and a fact is `general`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from wikimem.dream import dates

MAX_STATEMENT = 300

# People typing to an agent often start sentences in lower case ("… now. the migrate job …"):
# a full stop and a space end a sentence before any letter, unless the stop ends a short
# abbreviation ("e.g.", "i.e.", "etc.", "vs.", "a.m.", "Dr.", "no. 5").
_SENTENCE_SPLIT = re.compile(
    r"(?<=[.!?])"
    r"(?<!(?i:\be\.g\.))(?<!(?i:\bi\.e\.))(?<!(?i:\betc\.))(?<!(?i:\bvs\.))(?<!(?i:\bcf\.))"
    r"(?<!(?i:\bapprox\.))(?<!(?i:\bca\.))(?<!(?i:\ba\.m\.))(?<!(?i:\bp\.m\.))(?<!(?i:\bdr\.))"
    r"(?<!(?i:\bmr\.))(?<!(?i:\bmrs\.))(?<!(?i:\bms\.))(?<!(?i:\bst\.))(?<!(?i:\bincl\.))"
    r"(?<!(?i:\besp\.))(?<!(?i:\bfig\.))(?<!(?i:\bal\.))"
    r"(?:(?<!(?i:\bno\.))|(?=\s+[A-Za-z]))"  # "no. 5" is a number; "no. the db …" ends a sentence
    r"\s+(?=[A-Za-z0-9\"'`(~/])|\n+"
)
_CLAUSE_REQUEST = re.compile(
    r"(?:,|;|\s[-–—])\s*(?:so\s+)?(?:and\s+)?(?:please|can you|could you|would you|pls|let'?s|"
    r"now (?:please )?(?:fix|update|change)|go ahead and|then (?:fix|update))\b.*$",
    re.IGNORECASE,
)
_LEAD_FILLER = re.compile(
    r"^(?:(?:by the way|btw|fyi|oh and|oh|also|and|so|ok(?:ay)?|alright|actually|just so you know|"
    r"heads up|quick note|one more thing|for context|for your information|hey|hi|looks good|"
    r"great|thanks|thank you|cool|nice|perfect)[,:!.]?\s+)+",
    re.IGNORECASE,
)
_NORMATIVE_LEAD = re.compile(
    r"^(?:from now on|going forward|in (?:the )?future|as a rule|by default)[,:]?\s+", re.IGNORECASE
)
# A label before a colon that says what follows is a rule or a note, not part of it.
_LABEL_LEAD = re.compile(
    r"^(?:[\w' -]{0,40}\b(?:rules?|conventions?|notes?|things?|tips?|reminders?|context|"
    r"important|heads up|part \d+ of \d+)\b[\w' ,-]{0,40}):\s+(?=\S)",
    re.IGNORECASE,
)
_EXPLICIT = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep in mind|don'?t forget|for future reference|"
    r"for the record|make a note|take note|memori[sz]e)(?:\s+(?:that|this))?[,:]?\s+"
    r"(?!to\b|what\b|how\b|when\b|where\b|why\b|if\b|whether\b|which\b)(?P<rest>.+)$",
    re.IGNORECASE,
)
_RETRACT_LEAD = re.compile(
    r"^(?:please\s+)?(?:forget (?:that|it|this|what I (?:just )?said)|scratch that|never ?mind(?: that)?|"
    r"ignore (?:that|what I (?:just )?said)|that'?s (?:no longer|not) (?:true|the case|right|correct)(?: anymore)?|"
    r"that is (?:no longer|not) (?:true|the case)(?: anymore)?|disregard that|not anymore)"
    r"(?:[.!]?$|[,;:.!]\s+(?P<rest>.+)$)",
    re.IGNORECASE,
)
_RETRACT_TARGET = re.compile(
    r"^(?:please\s+)?(?:(?:forget|scratch|ignore|disregard) (?:that |this |what (?:I|we) (?:just )?said "
    r"|what you (?:know|remember|have) )?about |forget that )(?P<target>[^,;:]+)(?:[,;:]\s*(?P<rest>.+))?$|"
    r"^(?P<target2>.+?) (?:is|are) no longer (?:true|the case|valid|relevant)$|"
    # "X is wrong" alone is a complaint ("the test is wrong, fix it"); it retracts only when it
    # says the person's own earlier words were wrong: "turns out …", "what I said about …",
    # "the … thing/bit/part"
    r"^(?:(?:it )?turns out,? |actually,? )(?:the |that |my )?(?P<target3>[^,;:]+?)(?: thing| bit| part| note)? "
    r"(?:was|is) (?:wrong|incorrect|a mistake|not true|outdated|out of date)(?:[,;:]\s*(?P<rest3>.+))?$|"
    r"^(?:what (?:I|we) said about |my note about )(?P<target4>[^,;:]+?) "
    r"(?:was|is) (?:wrong|incorrect|a mistake|not true)(?:[,;:]\s*(?P<rest4>.+))?$|"
    r"^(?:the |that )?(?P<target5>[^,;:]+?) (?:thing|bit|part) "
    r"(?:was|is) (?:wrong|incorrect|a mistake|not true)(?:[,;:]\s*(?P<rest5>.+))?$",
    re.IGNORECASE,
)
# What a correction says before its new value: "I misremembered: it's X" is "<target> is X".
_CORRECTION_LEAD = re.compile(
    r"^(?:(?:sorry|my bad|oops)[,:!.]?\s*)?(?:I (?:misremembered|mixed (?:it|them) up|got (?:it|that) wrong)"
    r"[,:;.!]?\s*)?",
    re.IGNORECASE,
)
_IT_IS = re.compile(r"^(?:it'?s|it is|they'?re|they are)\s+", re.IGNORECASE)

_QUESTION_START = re.compile(
    r"^(?:what|why|how|when|where|which|who|whom|whose|is|are|was|were|do|does|did|can|could|"
    r"would|should|will|shall|may|might|have|has|had|any idea|any chance)\b",
    re.IGNORECASE,
)
_TASK_VERBS = (
    r"fix|add|write|create|implement|refactor|run|check|show|explain|tell|find|update|delete|"
    r"remove|rename|look|look into|investigate|debug|try|help|make|build|generate|review|"
    r"summari[sz]e|describe|list|open|read|print|install|upgrade|bump|revert|commit|push|merge|"
    r"deploy|test|move|change|set up|setup|configure|document|search|grep|figure out|adjust|"
    r"drop|point|clean up|reformat|format|migrate|reinstall|schedule|apply|carry on|continue|"
    r"proceed|do|go|start|stop|keep going|ping|tweak|patch|wire|hook up|reply|answer|cut|tag|"
    r"release|ship|publish|rerun|retry|dry-run"
)
_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|now\s+|then\s+|ok\s+|okay\s+|just\s+|go ahead and\s+)*"
    r"(?:" + _TASK_VERBS + r"|can you|could you|would you|will you|let'?s|let us|i need you to|"
    r"i want you to|i'd like you to)\b",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"\b(?:before|after|when|whenever|every time|each time|if|unless|while|once)\b", re.IGNORECASE
)
_TRANSIENT_PERSON = re.compile(
    r"\b(?:i'?m seeing|i am seeing|i see|i'?m getting|i am getting|i got|i get|i'?m having|"
    r"i'?m trying|i am trying|i'?m working on|i'?m going to|i am going to|i'?ll|i will|i just|"
    r"i was|i'?m stuck|i am stuck|i'?m not sure|i am not sure|i'?m confused|i'?m lost|"
    r"let me|can'?t figure|no idea|i think|i guess|i believe|i wonder|not sure|"
    r"thanks|thank you|great job|nice work|awesome|ugh|argh|weird|strange|"
    r"i'?m in a (?:rush|hurry)|i am in a (?:rush|hurry)|i keep getting|i keep seeing|"
    r"(?:have|has)n'?t (?:\w+ )?(?:settled|decided|figured|chosen|picked))\b",
    re.IGNORECASE,
)
_TRANSIENT_STATE = re.compile(
    r"\b(?:there'?s (?:a|an|some) (?:error|bug|issue|problem)|something (?:is|'s) (?:wrong|off|broken)|"
    r"is (?:failing|broken|down|flaky|wrong|outdated|out of date)|"
    r"are (?:failing|broken|flaky|wrong|outdated|out of date)|doesn'?t work|does not work|"
    r"not working|isn'?t working|maybe|perhaps|probably|might be|seems|looks like|right now|"
    r"at the moment|currently broken|for now|temporarily|this time|just this once)\b",
    re.IGNORECASE,
)
_NORMATIVE = re.compile(
    r"\b(?:always|never|instead of|rather than|prefer(?:s|red)?|(?:do not|don't|dont) (?:ever )?"
    r"(?:use|add|commit|push|run|call|import|write|put|edit|touch|mock|deploy|merge|rely)|"
    r"stop using|avoid|we use|i use|we're using|we are using|(?:we|i)(?:'ve| have)? switched to|"
    r"switched to|we moved to|we now use|i now use|make sure to|must not|must always|"
    r"should never|should always|only use|as a rule|our convention|the convention|no longer use|"
    r"we don'?t use|(?:we|i)(?:'ve| have)? dropped|no more|is the way to|the way to run)\b",
    re.IGNORECASE,
)
_IMPERATIVE_RULE = re.compile(
    r"^(?:always|never|don'?t|do not|use|prefer|avoid|keep|put|name|write|run|before|after|"
    r"when|whenever)\b",
    re.IGNORECASE,
)
_RULE_PIECE = re.compile(
    r"^(?:always|never|don'?t|do not|use|prefer|avoid|only use)\s+(?:ever\s+)?"
    r"(?:use|run|commit|push|call|import|write|put|edit|touch|mock|deploy|merge|rely|add|store|"
    r"log|hardcode|skip|ignore|format|bump|check|keep|change|name|the|a|an|[a-z][\w.-]*\s+for)\b",
    re.IGNORECASE,
)
_ABOUT_ME = re.compile(
    r"^(?:i am (?!seeing|getting|having|trying|working on|going|not sure|stuck|confused)|"
    r"i'm (?!seeing|getting|having|trying|working on|going|not sure|done|back|here|stuck|confused|lost)|"
    r"my name is|i work (?:at|on|for|as|in)|i live|my (?:role|job|team|timezone|time zone|"
    r"pronouns|email|github|handle|manager|company|employer|shell|editor|os|laptop|machine|"
    r"keyboard|layout) (?:is|are)|call me|i speak|i'm based|i am based|i'm from|i am from)\b",
    re.IGNORECASE,
)
_HABIT = re.compile(
    r"^i(?:'ve| have)? (?:always |never |usually |often |only |mostly |generally |normally |now )?"
    r"(?:use|prefer|like|love|review|write|work|format|code|run|keep|take|type|block|read|"
    r"commit|push|merge|test|deploy|name|avoid|want|switched|dropped|moved to|do|given up on|"
    r"stopped using|quit using)\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i prefer|i like|i love|i hate|i dislike|i always|i never|i usually|i tend to|my style|"
    r"for me|to me|with me|when you (?:answer|reply|respond|explain|write|talk)|your (?:answers|"
    r"replies|responses|explanations|tone)|(?:answer|reply|respond|explain|talk|write to me|"
    r"summari[sz]e) (?:in|briefly|concisely|tersely|with|without|like)|emojis?|be (?:brief|"
    r"concise|terse|direct)|keep (?:answers|replies|responses) (?:short|brief)|"
    r"(?:in|for|across) (?:all|every|each|any) (?:of )?(?:my |our |the )?(?:[\w-]+ )?"
    r"(?:projects?|repos?|repositor(?:y|ies)|codebases?)|i use \S+ everywhere|globally|"
    r"across (?:all )?(?:my |our )?(?:projects|repos)|whatever the project|in any project)\b",
    re.IGNORECASE,
)
_FACT_VERB = re.compile(
    r"\b(?:is|are|was|were|runs|run|listens|listen|lives|live|sits|sit|uses|use|moved|migrated|"
    r"switched|deploys|deploy|deployed|hosted|points|point|owned|owns|own|maintained|maintains|"
    r"belongs|happens|happen|scheduled|cut|tagged|released|pinned|requires|require|needs|need|"
    r"expires|expire|rotates|rotate|resets|reset|backs up|backed up|stored|stores|kept|keeps|"
    r"called|named|served|serves|goes|go|lands|land|publishes|publish|has been|have been|"
    r"became|talks|talk|connects|connect|reads|writes|logs|sends|calls|allows|allow|comes|come|"
    r"upgraded|updated|bumped|generated|handles|takes|support|supports|ships|runs on)\b",
    re.IGNORECASE,
)
# Something a fact can be checked against: a host, port, path, URL, version, time, quantity,
# identifier or named piece of infrastructure. Bare numbers, feelings and chat are not.
_CONCRETE = re.compile(
    r"https?://|\b[a-z][a-z0-9+.-]*://\S|`[^`]+`|\b[\w-]+\.(?:internal|local|com|net|org|io|dev|"
    r"cloud|ya?ml|json|toml|py|ts|tsx|js|go|rs|md|sh|sql|cfg|ini|env|lock|txt|csv|conf)\b|"
    r"\b[\w.-]+/[\w./-]+|@\w|\b[\w-]+:\d{2,5}\b|\bport \d{2,5}\b|\bv?\d+\.\d+(?:\.\d+)*\b|"
    r"\b\d{1,2}:\d\d\b|\b\d+ ?(?:ms|s|sec|secs|seconds?|minutes?|mins?|hours?|h|gb|mb|kb|tb|%|"
    r"requests?|rpm|rps|qps|lines?|retries|times|workers?|threads?|cores?|replicas?|pods?|"
    r"connections?|items?|rows?|files?|px|chars?|characters?|days?)\b|"
    r"\b(?:node|python|postgres|java|go|ruby|php|redis|mysql|ubuntu|debian|rust) \d+\b|"
    r"\b(?:every|each) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|day|night|week|"
    r"month|hour)s?\b|\b(?:daily|nightly|weekly|monthly|hourly)\b|\bon (?:mondays|tuesdays|"
    r"wednesdays|thursdays|fridays|saturdays|sundays)\b|"
    r"(?-i:\b[A-Z][a-z]+[A-Z]\w*\b)|(?-i:(?<!^)\b[A-Z][a-z]+ [A-Z][a-z]+\b)|"
    r"\b(?:ci|cd|make|main|master|trunk|staging|production|prod|changelog|tag|tags|branch|"
    r"release branch|pull request|merge queue|cron|kubernetes|k8s|helm|terraform|docker|"
    r"aws|gcp|azure|s3|redis|postgres|mysql|kafka|grafana|prometheus|datadog|sentry|journald|"
    r"on-call|vpn|api|sdk|cli|database|db|server|service|endpoint|bucket|queue|cluster|repo|"
    r"monorepo|pipeline|script|config|env|token|secret|certificate|proxy|gateway|registry|"
    r"container|image|migration|schema|renderer|library|package|dependency|framework|linter|"
    r"formatter|compiler|runtime|loader|exporter|collector|dashboard|runbook|sandbox|"
    r"design system|test suite|tests|build|deploy|deploys|release|releases|backup|backups|"
    r"warehouse|cache|worker|scheduler|feed|throttle|rate limit)\b",
    re.IGNORECASE,
)
# Someone's story or feelings, not a fact about the work ("I went to a support group",
# "the stories were so inspiring!").
_NARRATIVE = re.compile(
    r"^(?:i|we|my \w+ and i)(?:'ve| have| had|'d)? (?:just |finally |really |also )?(?:went|go|felt|feel|"
    r"had|saw|met|visited|loved|love|enjoyed|got|did|tried|started|finished|took|bought|"
    r"watched|played|cooked|painted|was|were|am|'m|spent|found|learned|realized|hope|wish|"
    r"think|guess|can't wait|miss|missed)\b|"
    r"\b(?:so (?:much|many|glad|happy|proud|excited|lucky|grateful|cool|great|amazing|"
    r"inspiring|powerful|special|fun)|amazing|awesome|wonderful|gorgeous|beautiful|stoked|"
    r"thrilled|excited|proud|grateful|lucky|love it|can't wait)\b",
    re.IGNORECASE,
)
# A line of a pasted conversation ("[1:56 pm on 8 May, 2023] Caroline: …"): someone else's words.
_QUOTED_CHAT = re.compile(r"^\[[^\]]{3,60}\]\s*[A-Z][\w .'-]{0,30}:\s")
_CATEGORY_WORDS = re.compile(
    r"\b(?:npm|pnpm|yarn|bun|pip|poetry|uv|pdm|pytest|jest|vitest|mocha|black|prettier|ruff|"
    r"mypy|pyright|tabs|spaces|[24]-space|single quotes|double quotes|default exports?|"
    r"named exports?|postgres|mysql|sqlite|docker|podman|neovim|vim|emacs|vs ?code|bash|zsh|"
    r"fish|squash|rebase|snake_case|snake case|camelCase|camel case|kebab-case|kebab case|"
    r"PascalCase|pascal case|conventional commits)\b",
    re.IGNORECASE,
)
_HERE = re.compile(
    r"\s*,?\s*\b(?:here|in this (?:repo|repository|project|codebase|service|app)|"
    r"for this (?:repo|repository|project|codebase|service|app)|"
    r"in our (?:repo|repository|project|codebase))\b(?=\s*[,.;!]|\s*$|\s)",
    re.IGNORECASE,
)
_NOW = re.compile(
    r"\s+(?:right )?now(?=\s*[,.;!:)]|\s*$)|\s+anymore\b|\s+any more\b", re.IGNORECASE
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_COMMENTARY = re.compile(
    r"^(?:that'?s why|which is why|that is why|that'?s how|it'?s already|it is already|"
    r"already done|it'?s done|it'?s fixed|that got fixed|which got fixed|that'?s all|"
    r"it'?s (?:been )?(?:changed|updated|done) already)\b",
    re.IGNORECASE,
)
_OWN_CLAUSE = re.compile(r"^(?:my|our) \w+(?: \w+)? (?:is|are)\b", re.IGNORECASE)
_PRONOUN_OBJECT = re.compile(r"\b(?:it|them|her|him|that|there|this)\b", re.IGNORECASE)
_PRONOUN_LEAD = re.compile(r"^(?:it|they|this|that)(?:'s| is| are| was| \w+s)\b", re.IGNORECASE)
_ASKED_TO = re.compile(
    r"^(?P<who>[\w\s-]{2,30}?) (?:asked|told|wanted|wants|decided|agreed)(?: (?:us|me|them))? to "
    r"(?P<verb>move|change|switch|set|bump|shift|push|pin|raise|lower)(?P<what> .+?) to (?P<to>.+)$",
    re.IGNORECASE,
)
_COMPOUND = re.compile(
    r"^(?P<subject>(?:the |our |a |an )?[\w./-]+(?: [\w./-]+){0,3}) (?P<first>(?:"
    + r"logs|reads|writes|runs|uses|lives|listens|talks|sends|stores|keeps|needs|requires|calls|"
    r"owns|deploys|publishes|builds|serves|points|supports|is|has)\b.+?) and "
    r"(?:(?:it|they) )?(?P<second>(?:logs|reads|writes|runs|uses|lives|listens|talks|sends|stores|"
    r"keeps|needs|requires|calls|owns|deploys|publishes|builds|serves|points|supports|is|has)\b.+)$",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(r"(?:,|;)\s+(?![^`]*`)")
_CONJ_RULES = re.compile(r"\s+(?:and|but)\s+(?=(?:always|never|don'?t|do not)\b)", re.IGNORECASE)


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
    s = _NORMATIVE_LEAD.sub("", s)
    s = re.sub(r"^(?:please|pls|just)\s+", "", s, flags=re.IGNORECASE)
    s = _HERE.sub("", s)
    s = _NOW.sub("", s)
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
    if kind == "about" or _PERSONAL.search(sentence) or _HABIT.match(sentence):
        return "profile"
    if in_project:
        return "project"
    return "profile" if kind in ("preference", "convention") else "general"


def _classify(sentence: str, normative_lead: bool = False) -> str | None:
    """preference/fact/about for a clause that is a statement, None for anything else."""
    if _ABOUT_ME.match(sentence):
        return "about"
    if _REMINDER.match(sentence) and not _CONDITION.search(sentence):
        return None  # "remember to run the linter" is a task for now
    bare = re.sub(r"^(?:please|pls)\s+", "", sentence, flags=re.IGNORECASE)
    if bare != sentence and _PERSONAL.search(bare) and not _REQUEST.match(bare):
        return "preference"  # "please keep answers short": how to work with the person
    if _HABIT.match(sentence):
        return "preference"
    if normative_lead and (_CONDITION.search(sentence) or _IMPERATIVE_RULE.match(sentence)):
        return "preference"  # "from now on, before you finish, run make check-fast"
    if _NORMATIVE.search(sentence) or _IMPERATIVE_RULE.match(sentence):
        if _REQUEST.match(sentence) and not _NORMATIVE.search(sentence):
            return None
        # "Use the new endpoint" is a task; "use X for Y" with a tool or style is a rule
        if (
            _IMPERATIVE_RULE.match(sentence)
            and not _NORMATIVE.search(sentence)
            and not re.search(
                r"\b(?:for|with|over|instead|when|in|before|after)\b", sentence, re.IGNORECASE
            )
        ):
            return None
        return "preference"
    if _REQUEST.match(sentence):
        return None
    if _CATEGORY_WORDS.search(sentence) and re.search(
        r"\b(?:use|uses|using)\b", sentence, re.IGNORECASE
    ):
        return "preference"  # "strings use double quotes": a convention, said as a fact
    if (
        _FACT_VERB.search(sentence)
        and _CONCRETE.search(sentence)
        and not _NARRATIVE.search(sentence)
        and not sentence.rstrip().endswith("!")
    ):
        return "fact"
    return None


_REMINDER = re.compile(r"^(?:please\s+)?(?:remember|don'?t forget) to\b", re.IGNORECASE)


def _rewrite_reported_change(clause: str) -> str:
    """ "finance asked us to move invoice generation to 07:15" → "Invoice generation was moved
    to 07:15 (asked by finance)": what is true afterwards, not who asked for a task."""
    m = _ASKED_TO.match(clause)
    if not m:
        return clause
    participle = {"set": "set", "push": "pushed", "pin": "pinned", "shift": "shifted"}.get(
        m["verb"].lower(), m["verb"].lower().rstrip("e") + "ed"
    )
    return (
        f"{m['what'].strip()} was {participle} to {m['to'].strip()} (asked by {m['who'].strip()})"
    )


def _clauses(sentence: str) -> list[str]:
    """A sentence as its statements: requests and commentary cut off, rules and "my X is …"
    clauses taken apart, two verbs of one subject made two statements."""
    sentence = _CLAUSE_REQUEST.sub("", sentence).strip()
    pieces = [p.strip() for p in _CLAUSE_SPLIT.split(sentence) if p.strip()]
    if not pieces:
        return []
    out = [pieces[0]]
    leading_condition = bool(
        re.match(r"^(?:before|after|when|whenever|if|once|every time)\b", pieces[0], re.IGNORECASE)
    )
    for piece in pieces[1:]:
        low = piece.lower()
        if _COMMENTARY.match(low):
            continue
        task = re.sub(r"^(?:so|and|then|just|please)\s+", "", piece, flags=re.IGNORECASE)
        if leading_condition:
            out[-1] = f"{out[-1]}, {piece}"  # "before you finish, run X": the rule itself
            leading_condition = False
            continue
        if _REQUEST.match(task) and not _RULE_PIECE.match(task):
            if _CONDITION.search(task) and _PRONOUN_OBJECT.search(task):
                out[-1] = f"{out[-1]}, {piece}"  # "so ping her before changing tokens"
                continue
            break  # a task for the agent now: it and what follows are not claims
        if (
            _RULE_PIECE.match(task)
            and not _PRONOUN_OBJECT.search(task)
            and not _NORMATIVE.search(out[-1])  # "use bun, don't use pnpm": one rule
        ):
            out.append(task)
            continue
        if _OWN_CLAUSE.match(piece) or _HABIT.match(piece):
            out.append(piece)
            continue
        out[-1] = f"{out[-1]}, {piece}"
    split: list[str] = []
    for clause in (piece for c in out for piece in _CONJ_RULES.split(c)):
        clause = _rewrite_reported_change(clause)
        m = _COMPOUND.match(clause)
        if m and not _CONDITION.search(m["first"]):
            subject = m["subject"]
            split += [f"{subject} {m['first']}", f"{subject} {m['second']}"]
        else:
            split.append(clause)
    return split


_TARGET_GROUPS = ("target", "target2", "target3", "target4", "target5")
_REST_GROUPS = ("rest", "rest3", "rest4", "rest5")


def _retraction(sentence: str, in_project: bool) -> tuple[Statement | None, str]:
    """(the retraction a sentence opens with, what it says is true instead), or (None, "")."""
    scope = "project" if in_project else "profile"
    bare = sentence.rstrip(".!")
    m = _RETRACT_LEAD.match(bare)
    if m:
        rest = (m["rest"] or "").strip()
        return Statement("retraction", sentence, scope, target=rest), rest
    m = _RETRACT_TARGET.match(bare)
    if m:
        target = next((m[g] for g in _TARGET_GROUPS if m[g]), "").strip()
        rest = next((m[g] for g in _REST_GROUPS if m[g]), "").strip()
        rest = _CORRECTION_LEAD.sub("", rest)
        if _REQUEST.match(rest):
            rest = ""  # "…, fix it" says what to do, not what is true
        if target and _IT_IS.match(rest):
            # "scratch that about the webhook var: it's X" says "the webhook var is X"
            rest = f"{target[0].upper()}{target[1:]} is {_IT_IS.sub('', rest)}"
        if target:
            return Statement("retraction", sentence, scope, target=target), rest
    return None, ""


def extract(
    text: str, said_on: date | None = None, in_project: bool = True, *, asked: bool = False
) -> list[Statement]:
    """The statements of `text`. With `asked` (`wikimem remember`, an MCP write), the person
    asked for all of it to be remembered: every clause that is not a request or a question is
    kept, recognised or not."""
    out: list[Statement] = []
    if _QUOTED_CHAT.match(text.lstrip()):
        return out  # a pasted conversation: the digest keeps it, it is no one's claim here
    for raw in sentences(text):
        sentence = _LEAD_FILLER.sub("", raw).strip()
        sentence = _LABEL_LEAD.sub("", sentence).strip()
        if not sentence:
            continue
        retraction, rest = _retraction(sentence, in_project)
        replacing = False
        if retraction is not None:
            out.append(retraction)
            if not rest or _PRONOUN_LEAD.match(rest) or re.match(r"^that\b", rest, re.I):
                continue
            sentence, replacing = rest, True  # what is true instead: kept as said
        if sentence.endswith("?") or (_QUESTION_START.match(sentence) and "?" in raw):
            continue
        if _PRONOUN_LEAD.match(sentence) and out and out[-1].kind != "retraction":
            # (a retraction's replacement is a statement too, so it can be continued)
            # "It fails fast now." goes on with the statement before it
            continuation = clean(sentence, said_on)
            if not _TRANSIENT_PERSON.search(sentence) and not _REQUEST.match(sentence):
                last = out[-1]
                joined = f"{last.text.rstrip('.')}; {continuation[0].lower()}{continuation[1:]}"
                out[-1] = replace(last, text=joined)
            continue
        explicit = replacing or asked
        m = _EXPLICIT.match(sentence)
        if m:
            sentence, explicit = m["rest"].strip(), True
        normative_lead = bool(_NORMATIVE_LEAD.match(sentence))
        sentence = _NORMATIVE_LEAD.sub("", sentence)
        for part in _clauses(sentence):
            if part.endswith("?") or _TRANSIENT_PERSON.search(part):
                continue
            if _TRANSIENT_STATE.search(part) and not explicit:
                continue
            kind = _classify(part, normative_lead)
            if kind is None:
                if asked and _REQUEST.match(part) and len(part) >= 8:
                    # Asked to be remembered, an imperative is a standing rule ("Run lint with
                    # pnpm lint before pushing"), not a task for now.
                    kind = "preference"
                elif not explicit or _REQUEST.match(part) or len(part) < 8:
                    continue
                else:
                    kind = "fact"
            scope = _scope(kind, part, in_project)
            if kind == "preference" and scope == "project":
                kind = "convention"
            text_out = clean(part, said_on)
            if len(text_out) >= 8:
                out.append(Statement(kind, text_out, scope, explicit))
    # A statement that only said what a retraction replaces stays; the retraction's own words
    # are not a claim.
    return out
