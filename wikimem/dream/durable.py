"""Whether a clause a person typed is surely a durable statement: precise or silent.

A living note is what agents are told at every session start, so a line enters one only when
it reads as a standalone statement that stays true: a standing rule, a fact with a value one
can check, something about the person. Everything else a session held stays where it already
is, in that session's dated digest, where prompt-time search finds it (docs/memory.md).

This module recognises the durable shapes; it does not guess. `judge(clause)` answers with a
`Durable` (what kind of statement, and which shape said so) or a `Silent` (the reason it stays
in the digest):

  - **rule**: said to hold from now on ("always …", "never …", "from now on …", "going
    forward I'd like you to …", "every time …"); a convention over a kind of thing ("End all
    variable names with '_wr'.", "Test files end in _spec.rb.", "no print statements in
    library code"); a stance on a named tool ("we use pnpm", "use zod for validation", "ruff
    over flake8"); an obligation ("migrations must be reversible"); a prohibition with a
    general object ("dont regen lockfiles unless i ask"); how the person wants an agent to work
    ("keep answers short", "just go ahead and tell me after");
  - **fact**: a named thing with a value one can check (a port, host, URL, path, version,
    time, schedule, quantity, identifier, owner): "the metrics collector runs on port 9102";
    a change of one ("the collector moved to 9300"); a temporary state with an end date ("the
    release branch is frozen until 2026-03-06"), which expires on that date;
  - **about**: the person ("I'm based in Lisbon", "my timezone is UTC-5") and their habits
    ("I review PRs in the afternoon").

Silent, whatever else it looks like: a question; a request or order for now ("run …", "start
by …", "can u …", "kick off … and ping me"); a task of the day or a restriction for now
("don't merge anything till I'm back"); a guess ("prob a race in the worker"); a problem being
reported ("the export writes to the wrong bucket"); what someone else says (a page, the docs);
a fragment leaning on what came before ("I do those myself"); a line whose content was redacted.

Deterministic and dependency-free; the offline dream and `wikimem remember` use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wikimem.wiki.redacted import redacted_away


@dataclass(frozen=True)
class Durable:
    kind: str  # "rule", "fact" or "about"
    shape: str  # which shape recognised it (for tests and for a person asking why)
    change: bool = False  # said as a change of something ("moved to", "is now", "instead of")
    until: str = ""  # a temporary state's end (YYYY-MM-DD), after which it is no longer true


@dataclass(frozen=True)
class Silent:
    reason: str


Judgement = Durable | Silent

# -- the words a clause is read through -------------------------------------------------------

_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|so|and|also|oh|actually|btw|by the way|fyi|heads up|"
    r"quick note|one more thing|just so you know|for context|hey|hi|right|anyway|anyways|"
    r"fwiw|imo|imho|tbh|ngl|iirc|afaik|ah|ahh|hmm|hm|welp|ugh|argh|ooh|oops|lol|"
    r"plus|but|then|now|well|yeah|yep|nope|no|great|cool|thanks|thank you|perfect|nice|good|"
    r"fine|sure|right then|ok then|specifically|firstly|secondly|thirdly|lastly|finally|"
    r"additionally|moreover|furthermore|besides|in addition|importantly|also|first|second|"
    r"third|next|another thing|one more thing|lastly|to start|to begin with)"
    r"[,:!.]?\s+)+",
    re.IGNORECASE,
)
_POLITE = re.compile(r"^(?:(?:please|pls|plz|kindly|just)[,]?\s+)+", re.IGNORECASE)
_REDACTED = re.compile(r"\[REDACTED[^\]]*\]|\*{4,}|█")

# A person asking: a question mark, or an opening that asks.
_QUESTION = re.compile(
    r"\?\s*$|"
    r"^(?:what|which|where|when|why|how|who|whose|whom)(?:'s|'re| \w+)? (?:is|are|was|were|do|"
    r"does|did|can|could|should|would|will|has|have|had|i|we|you|they|it|there|the|this|that|"
    r"my|our|a|an)\b|"
    r"^(?:what|which|who|whose|how (?:many|much|long|often|come))\b|"
    r"^(?:is|are|was|were|does|did|can|could|would|will|should|shall|has|have|had|am|isn'?t|"
    r"aren'?t|doesn'?t|didn'?t|can'?t|won'?t|shouldn'?t|wouldn'?t)\s+(?:there|it|this|that|"
    r"these|those|we|you|i|they|he|she|the|a|an|my|our|your|any|anything|something|\w+ing)\b|"
    r"^do (?:you|we|i|they|the|it|this|that|these|those|any)\b|"
    r"^(?:any idea|any chance|anyone know|wonder(?:ing)? (?:if|whether|why|how|what))\b|"
    r"^(?:i (?:wonder|was wondering)|do you (?:know|think|remember))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|prob|probs|possibly|likely|unlikely|apparently|presumably|"
    r"seems?|seemed|looks like|look like|might|may be|could be|could've|must be|"
    r"i (?:think|guess|suspect|believe|assume|reckon|bet|feel like|imagine)|my (?:guess|hunch|"
    r"theory|bet)|not (?:sure|certain)|no idea|hopefully|kinda|sort of|i wonder|in theory|"
    r"supposedly|if i recall|iirc|afaik|afaict|unless i'?m wrong|hypothes\w+|"
    r"(?:i'?m|we'?re|i was|we were) (?:just )?thinking|(?:i|we) (?:were|was) thinking)\b",
    re.IGNORECASE,
)
# Someone else's words, reported: "the README says always run …", "according to the docs".
_REPORTED = re.compile(
    r"^(?:the |this |that |a |an |their |his |her |some )?(?:[\w.-]+ ){0,3}?(?:page|doc|docs|"
    r"readme|guide|blog(?: post)?|article|post|tutorial|wiki|comment|issue|thread|answer|"
    r"site|website|vendor|manual|he|she|they|someone|somebody|chatgpt|copilot|gpt|stackoverflow|"
    r"stack overflow|the internet|google)\s+(?:says?|said|writes?|wrote|recommends?|claims?|"
    r"suggests?|tells? (?:you|us|me) to|mentions?)\b|"
    r"\baccording to\b|\b(?:quote|quoting|pasted|copied|copy-pasted)\b",
    re.IGNORECASE,
)
# Chit-chat and feelings: nobody wants these read back at the next session.
_CHAT = re.compile(
    r"\b(?:thanks|thank you|cheers|lol|haha|ugh|argh|omg|wow|yay|sorry|great job|nice work|"
    r"well done|awesome|amazing|wonderful|lovely|glad|happy to|excited|frustrat\w+|annoy\w+|"
    r"tired|exhausted|weekend|vacation|holiday|lunch|coffee|how are you|good morning|"
    r"good night|have a good|nice to meet|pleasure|fantastic|excellent|impressive|"
    r"(?:i'?m|i am) (?:confident|sure|glad|happy|excited|thrilled|proud)|enthusias\w+|"
    r"dedication|mentor\w*|mentee|team player|growth|journey|"
    r"(?:love|like) (?:your thinking|how you think|the way you'?re thinking|(?:the|that|your) "
    r"(?:[\w-]+ )?(?:idea|approach|way of thinking))|"
    r"(?:i|we) (?:can|could|would) recommend)\b",
    re.IGNORECASE,
)
# Pleasantries that stay chat even with an "always" in them ("my door is always open").
_PLEASANTRY = re.compile(
    r"\b(?:reach out|don'?t hesitate|feel free|my door|here (?:to|for) (?:help|you|support)|"
    r"happy to help|any questions|keep up the good work|welcome aboard|you'?re welcome|"
    r"anytime|good luck|proud of you|well done|(?:don'?t|do not) (?:be )?(?:afraid|shy|"
    r"scared|worried|worry|hesitate)|feel comfortable|(?:don'?t|do not) forget (?:about|to "
    r"(?:reach|ask|enjoy|take care))|your (?:growth|strengths?|attention to detail)|"
    r"(?:always )?(?:happy|glad) to (?:help|mentor|assist|support|chat|guide)|"
    r"(?:i'?m|i am) (?:always )?(?:available|around|here)\b(?! on\b))\b",
    re.IGNORECASE,
)
# Opinions, aims and encouragement: nobody's claim about this work, however often "always"
# comes with them ("consistency and clarity are key", "investing in skills is always a good
# idea", "our primary concern is always security", "always strive for excellence").
_OPINION = re.compile(
    r"\b(?:is|are|'s|'re)\s+(?:just as |also |always |really |so |very |absolutely |truly |"
    r"equally |more |most |not just |all )?(?:key|crucial|vital|essential|paramount|critical|"
    r"fundamental|invaluable|everything|a must|a two-way street|important(?! to (?:us|me) that)|"
    r"an? (?:iterative|ongoing|continuous|collaborative) (?:process|effort|journey)|"
    r"the (?:key|recipe|secret|foundation|cornerstone|heart|backbone|essence)|"
    r"(?:always |usually |often )?an? (?:good|great|smart|wise|excellent|valuable|useful|"
    r"powerful|fantastic) (?:idea|thing|practice|habit|way|approach|tool|skill|example))\b|"
    r"\b(?:will|can|would|should) (?:really )?(?:benefit|serve|help) you(?: well)?\b[^.;]*\b(?:"
    r"career|long run|future|growth|well)\b|\bpays? off\b|\bfor good reason\b|"
    r"\bhave become (?:quite |very |increasingly |really )?popular\b|\bthe beauty of\b|"
    r"\bthat'?s (?:how|what|why|where) [\w ]{0,30}(?:happens|matters|counts|works|for)\b|"
    r"\brequires? (?:ongoing|constant|continuous) effort\b|\bbetter than perfect\b|"
    r"^(?:our|the|my|your) (?:primary |main |core |ultimate |biggest |top |overall |first )?"
    r"(?:concern|goal|aim|priority|focus|mission|vision|values?|philosophy|motto|culture|"
    r"objective|purpose) (?:is|are)\b|"
    r"^(?:always |never |don'?t |do not )?(?:learning|strive (?:for|to)|aim for excellence|stop learning|"
    r"keep learning|keep growing|keep pushing|underestimate (?:yourself|your)|"
    r"doubt yourself|believe in yourself|take (?:pride|ownership) in|be proud of|"
    r"stay (?:curious|positive|humble|motivated|hungry)|enjoy (?:the|your)|have fun)\b|"
    r"\bkeep (?:the|that|this|it|these|those) (?:[\w-]+ ){0,3}in mind\b|"
    r"^the (?:key|trick|secret|idea|point|first step) (?:here )?is\b|"
    r"\bnot (?:just|only) [^.;]{1,80}\b(?:but|(?:you|we)'?(?:re| are) also)\b",
    re.IGNORECASE,
)
# "I want you to …", "I'd like you to …": who wants it, before what is wanted
_WANTED_LEAD = re.compile(
    r"^(?:i|we) (?:really |also |just )?(?:want|need|'d like|would like|expect) (?:you|everyone) "
    r"to (?:always |really |also |just )?",
    re.IGNORECASE,
)


def _main_clause(c: str) -> str:
    """`c` before a clause that gives a reason ("…; it's essential for performance")."""
    return re.split(r";|,\s*(?:it|that|this|which)(?:'s| is| will)\b|\s[—–]\s", c, maxsplit=1)[0]


# A rule announced, not said: "I want you to update your variable naming convention", "I want
# you to follow a specific naming convention for …" (the rule is the next sentence), "try
# something different"; and an example of one: "if you have a method that …, you'd name it …".
_ANNOUNCED = re.compile(
    r"\b(?:a|one) (?:specific|particular|certain|new|few|couple of|slight|small|different|"
    r"specific set of) (?:naming )?(?:conventions?|standards?|guidelines?|rules?|practices?|"
    r"changes?|styles?|formats?|approach|updates?|tweaks?)\b|"
    r"\bupdate (?:your|our|the) (?:[\w-]+ )?(?:naming conventions?|coding style|style|"
    r"conventions?|approach|practices?)\b|\btry something (?:different|new)\b|"
    r"\byou'?d (?:name|call|write) (?:it|them|this)\b|^(?:for example|for instance|e\.g\.)\b|"
    r"^(?:another|one more|the next|a further) (?:change|thing|update|rule|convention)\b|"
    r"\b(?:two|three|four|a few|a couple of) (?:key |specific |important |new |"
    r"more )?(?:coding )?(?:aspects|things|points|instructions|guidelines|conventions|rules|"
    r"changes|practices)\b",
    re.IGNORECASE,
)
# The person's passing state, or what they are doing now.
_PASSING = re.compile(
    r"^(?:i'?m|i am|we'?re|we are) (?!using\b|based\b|from\b|on\b|in\b|a\b|an\b|the\b|"
    r"part of\b|responsible\b|allergic\b|colou?r ?blind\b|left-handed\b|right-handed\b|"
    r"standardi[sz]ing\b|switching\b|moving (?:to|off|away)\b|migrating\b|dropping\b|"
    r"going back\b|sticking\b|not using\b|no longer\b|done with\b|off\b)|"
    r"^(?:i|we) (?:just|finally|already|still|was|were|had|did|didn'?t|tried|saw|noticed|got|"
    r"ran|found|spent|broke|fixed|merged|pushed|deployed|wrote|added|changed|updated|removed|"
    r"deleted|started|finished|forgot|lost|hit|keep (?:getting|seeing|hitting))\b|"
    r"^(?:i'?ll|i will|we'?ll|we will|i'?m going to|we'?re going to|i am going to|i'?d like to|"
    r"i want to|i need to|we need to|i have to|we have to|let me|lemme|gonna|wanna)\b",
    re.IGNORECASE,
)
# A bound that makes a rule a thing of now: "don't merge anything till I'm back".
_NOW = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|session|time|once|week|sprint|pr|"
    r"branch|ticket|task|change|commit|run)|right now|at the moment|for now|for the moment|"
    r"for today|just this once|(?:till|until|til|before) (?:i'?m|i am|i get|we'?re|we get) "
    r"back|while i'?m (?:away|out|gone|off)|in this (?:pr|branch|session|ticket|task|run)|"
    r"for this (?:pr|branch|session|ticket|task|change|run|one)|first thing|next step|"
    r"asap|in a bit|later today|tomorrow|yet|(?:till|until|til) then|for the time being|"
    r"meanwhile|in the meantime)\b",
    re.IGNORECASE,
)
# A problem being reported: what the session is about, not a fact to carry into the next one.
_PROBLEM = re.compile(
    r"\b(?:broken|breaks|broke|crash\w*|fail(?:s|ing|ed|ure)?(?![ -]fast\b|[ -]open\b|"
    r"[ -]closed\b|[ -]safe\b)|errors? out|throws|raises an?|"
    r"exception|bug(?:gy|s)?|flaky|flakes|slow(?:er|ly)?|hangs?|hanging|stuck|timing out|"
    r"times out|timed out|wrong|weird|strange|odd|doesn'?t work|does not work|not working|"
    r"isn'?t working|stopped working|won'?t (?:start|build|load|run|work)|can'?t (?:find|"
    r"connect|reach|load|start)|returns? (?:[45]\d\d|an? error|none|null|nothing|empty)|"
    r"missing|outdated|out of date|leak\w*|regress\w*|off by one|is down|are down|went down|"
    r"goes down|keeps? \w+ing|still \w+ing|again|(?:a |such a |total )?mess|messy|ugly|"
    r"confusing|overkill|annoying|terrible|awful|horrible|gross|a pain|too (?:long|big|slow|"
    r"many|much|complex|complicated|noisy))\b",
    re.IGNORECASE,
)
# Words that point back at what came before: a clause leaning on them does not stand alone.
_DEICTIC_SUBJECT = re.compile(
    r"^(?:it|its|it'?s|this|that|that'?s|these|those|they|them|he|she|here|there'?s? (?:it|"
    r"that)|same|ditto|both|the (?:above|former|latter|same|next one|last one|other one|"
    r"first one)|this one|that one|which|something|especially|particularly|"
    r"nothing|anything|stuff)\b",
    re.IGNORECASE,
)
# Said without a subject, in the past: what was done, not what is ("changed the parser").
_DONE = re.compile(
    r"^(?:just |finally |already )?(?:[a-z]+ed|did|ran|made|wrote|built|took|put|got|set up|"
    r"broke|shipped|kept)\b(?! by\b| to\b| in\b| on\b| at\b| from\b| with\b| as\b)",
    re.IGNORECASE,
)
# "bumped us to terraform 1.9.8": a change said by what was done, with the value it is now
_CHANGED_TO = re.compile(
    r"\bto (?:v?\d+(?:\.\d+)+|[\w.-]+ v?\d+(?:\.\d+)*|`[^`]+`|[\w-]+(?:\.[\w-]+)+|\d{2,5})\b"
)
_PRONOUN_OBJECT = re.compile(
    r"^[^,;]*?\b(?!is\b|are\b|was\b|were\b)[a-z]+(?:s|ed)? (?:it|them|those|these)"
    r"(?=\s*(?:[,.;!]|$))",
    re.IGNORECASE,
)
_DEICTIC_OBJECT = re.compile(
    r"\b[a-z]+ (?:them|those|these)\b(?! (?:who|which|that)\b)|"
    r"\b(?:(?!(?:sure|ensure|means?|say|says|said|know|think|believe|remember|note|so|now|"
    r"given|check|verify|confirm|is|are|was|were)\b)[a-z]+ (?:it|that|this|one|ones|the (?:same|"
    r"above|former|latter))|the (?:same|"
    r"above) (?:way|thing))"
    r"(?=\s*(?:[,.;!]|$|\s+(?:myself|ourselves|yourself|too|again|later|instead|as well|"
    r"in|on|with|for|so|and|but|before|after|when|until|till|to|going|from|now|moving|"
    r"consistently|correctly|properly|also|everywhere|always|here|there|up|out|first)\b))",
    re.IGNORECASE,
)
# "apply these practices", "follow this convention": a rule that points back at another
_DEICTIC_NOUN = re.compile(
    r"\b(?:this|these|those|that|such) (?:convention|practice|rule|guideline|instruction|"
    r"approach|change|standard|naming convention|format|style|tool|habit|thing|update|"
    r"requirement|policy|advice|tip|suggestion)s?\b",
    re.IGNORECASE,
)
# Talk about the talk: "I want to go over a few of my expectations", "I'd like to discuss …"
_META = re.compile(
    r"\b(?:i|we)(?:'d| would)? (?:want|like|need|wanted|'d like|have) to (?:update|discuss|go "
    r"over|talk|touch|give|share|mention|set|emphasi[sz]e|remind|review|introduce|cover|"
    r"provide|follow up|bring up|address|focus|stress|highlight|clarify|start|check in)\b|"
    r"\blet'?s (?:shift|switch|change) gears\b|\blet'?s (?:now )?(?:move on|talk|discuss|go over|"
    r"dive|turn|focus|circle back|touch)\b",
    re.IGNORECASE,
)

# -- rules ---------------------------------------------------------------------------------------

# Said to hold from now on.
_STANDING = re.compile(
    r"\b(?:from now on|from here on(?: out)?|going forward|moving forward|in (?:the )?future|"
    r"henceforth|for good|at all times|without exception|no exceptions|as a (?:general )?rule|"
    r"by default|every single time|(?:any ?more|anymore) (?:please)?$|no matter what|"
    r"as standard|house rule|(?:continue|keep) (?:to use|using|doing|writing|adding|putting|"
    r"naming|running|including|following)|make it a habit|(?:get|getting) into the habit|"
    r"only ever)\b|"
    r"\b(?:nobody|no one|never)\b[^.;]{0,60}\bever\b|,\s*ever\b|"
    # "always"/"never" governing what to do: "always run …", "you should never …", "we always
    # use …", "make sure to always …" (not "has always been", "we're always refining")
    r"(?:^|\b(?:you|we|i|to|should|must|will|'ll|shall|and|please|pls|just|but|so|then|"
    r"of|[a-z]+s|names?|files?|tests?|commits?)\s+)(?:always|never|evr),?\s+(?!(?:been|be|was|were|"
    r"is|are|had|has|have|did|does|do|get to|seem|felt|feel|forget|stopped)\b)[a-z]+|"
    r"\b(?:don'?t|do not|never) ever\b|\bno\b[^.;]{1,40}\b(?:ever|evr)\b",
    re.IGNORECASE,
)
# Things a convention is about: kinds of artefacts, said in the plural or as a mass.
_ARTEFACT = (
    r"(?:names?|variables?|functions?|methods?|classes|class|attributes?|arguments?|args?|"
    r"parameters?|params?|constants?|modules?|packages?|files?|filenames?|folders?|"
    r"directories|tests?|test files?|specs?|fixtures?|migrations?|commits?|commit messages?|"
    r"subjects?|subject lines?|branch(?:es)?|branch names?|tags?|prs?|pull requests?|"
    r"merge requests?|mrs?|reviews?|comments?|docstrings?|docs|strings?|imports?|exports?|"
    r"endpoints?|routes?|handlers?|components?|hooks?|props?|types?|interfaces?|enums?|"
    r"structs?|fields?|columns?|tables?|queries|query|indexes|indices|logs?|log lines?|"
    r"log messages?|errors?|exceptions?|secrets?|credentials?|env vars?|environment variables?|"
    r"config(?:uration)?s?|config files?|scripts?|jobs?|dependencies|deps|versions?|releases?|"
    r"changelogs?|changelog entries|entries|lines|blocks|statements?|assertions?|asserts?|"
    r"decorators?|annotations?|type hints?|hints|keys?|ids?|timestamps?|dates?|urls?|paths?|"
    r"images?|containers?|charts?|manifests?|resources?|crates?|features?|feature flags?|"
    r"flags?|messages?|emails?|notifications?|alerts?|dashboards?|metrics?|events?|services?|"
    r"apis?|responses?|(?:request |response )?bod(?:y|ies)|payloads?|schemas?|models?|views?|templates?|stylesheets?|css|html|"
    r"sql|yaml|json|markdown|code|changes|edits|diffs|patches|indentation|indents?|quotes?|"
    r"semicolons?|try (?:statements?|blocks?)|try/except|docs?trings?|readmes?|notebooks?|"
    r"dockerfiles?|makefiles?|workflows?|pipelines?|builds?|deploys?|deployments?|slugs?|"
    r"commands?|everything|all code|all traffic|all calls|urls?|ports?|topics?|queues?|"
    r"buckets?|streams?|partitions?|clusters?|namespaces?|secrets?|resources?|modules?|"
    r"screens?|pages?|routes?|sections?|headings?|links?|"
    r"rollouts?|hotfix(?:es)?|tickets?|issues?|stories|tasks?)"
)
_QUANTIFIED = re.compile(
    r"\b(?:all|every|each|any)\s+(?!of the\b|the\b|of (?:these|those|them)\b|that\b|this\b|"
    r"its\b|their\b|his\b|her\b|these\b|those\b|them\b)"
    r"(?:(?:of )?(?:my|our|your|the team'?s)\s+)?(?:[\w'+#.-]+\s+){0,3}?" + _ARTEFACT + r"\b|"
    r"\beverything (?:i|we|you) (?:write|touch|commit|push|ship|own|make|build|create|do)\b|"
    # "include assert statements in your methods": what you write, of that kind
    r"\b(?:in|to|for|on) (?:all )?(?:of )?your (?:[\w-]+ )?" + _ARTEFACT + r"\b|"
    r"\bevery (?:language|repo|project|codebase)\b",
    re.IGNORECASE,
)
# "Releases are tagged by CI after the changelog check", "commits get squashed on merge".
_GENERIC_PASSIVE = re.compile(
    r"^(?:all |every |each |our |new |)(?:[\w'+#.-]+ ){0,2}?"
    + _ARTEFACT
    + r" (?:are|get|always get|are always|are never) (?!\w+ing\b)\w+(?:ed|en|wn|t)\b "
    r"(?:by|with|in|on|from|before|after|via|through|using|into|to|under|at|as)\b",
    re.IGNORECASE,
)
# The plural or mass subject of a convention: "test files end in _spec.rb", "migrations go in
# db/migrations", "commit subjects should be imperative".
_GENERIC_SUBJECT = re.compile(
    r"^(?:all |every |each |our |the |new |any |public |private |internal |)"
    r"(?:[\w'+#.-]+ ){0,3}?" + _ARTEFACT + r"(?: in [\w./-]+| under [\w./-]+| (?:we|i|you) "
    r"\w+(?: here)?| for (?:me|you|us) to \w+)? "
    r"(?:(?:should|must|need to|have to|has to|are to|shall)(?: always| never| not| only)? |"
    r"(?:always|never|only) |(?:don'?t|do not|never) |(?=(?:go|goes|live|lives|sit|sits|start|"
    r"starts|begin|begins|end|ends|use|uses|follow|follows|get|gets|need|needs|have|has|"
    r"belong|belongs|stay|stays|look|looks|take|takes|include|includes|carry|carries|come|"
    r"comes|run|runs|require|requires|contain|contains|match|matches|reference|references|"
    r"point|points|target|targets|default|defaults|pass|passes|wrap|wraps|return|returns|"
    r"keep|keeps|mirror|mirrors)\b))"
    r"(?:go|goes|live|lives|sit|sits|start|starts|begin|begins|end|ends|use|uses|follow|follows|"
    r"get|gets|need|needs|have|has|belong|belongs|stay|stays|look|looks|take|takes|include|"
    r"includes|carry|carries|come|comes|be|run|runs|require|requires|contain|contains|"
    r"match|matches|reference|references|point|points|target|targets|default|defaults|"
    r"pass|passes|wrap|wraps|return|returns|stay|keep|keeps|mirror|mirrors|live)\b|"
    # "Page slugs are kebab-case": a kind of thing and the named form it takes
    r"^(?:all |our |the |)(?:[\w'+#.-]+ ){0,2}?" + _ARTEFACT + r" (?:are|is) (?=(?:all |always )?"
    r"(?:kebab-case|snake_case|camelcase|pascalcase|lowercase|uppercase|`|'|\"|[\w-]+-case\b|"
    r"[a-z]+_[a-z]+\b|\d+ (?:chars?|characters?|lines?) max))",
    re.IGNORECASE,
)
_CONVENTION_VERB = (
    r"end|start|begin|prefix|suffix|name|rename|use|add|include|put|place|keep|write|format|"
    r"sign|type|annotate|document|wrap|log|prefer|follow|mark|tag|lint|test|cover|pin|lock|"
    r"sort|order|group|indent|quote|capitali[sz]e|lowercase|uppercase|import|export|declare|"
    r"define|avoid|squash|rebase|check|validate|run|commit|push|merge|deploy|open|close|"
    r"reference|link|mention|explain|summari[sz]e|show|ask|tell|give|answer|reply|respond|"
    r"spell|comment|describe|label|assign|review|require|make|keep|leave|set|stick"
)
_IMPERATIVE = re.compile(r"^(?:" + _CONVENTION_VERB + r")\b", re.IGNORECASE)
# "we want to ensure that all variable names …", "I'd like all your commits signed": a wish
# that is a rule when it is over a kind of thing
_WANTED = re.compile(
    r"\b(?:i|we)(?:'d| would)? (?:want|like|need|expect|require|ask)\b|\b(?:make sure|ensure)\b",
    re.IGNORECASE,
)
# A choice said as a stance: "we use pnpm", "I insist on annotations", "our convention is …".
_STANCE = re.compile(
    r"^(?:we|i|the team|our team)(?:'ve| have| all)? (?:(?:always|usually|generally|mostly|"
    r"only|now|still|normally) )?(?:use|prefer|favou?r|like|love|stick (?:to|with)|"
    r"standardi[sz]ed on|settled on|went with|go with|switched to|moved to|migrated to|"
    r"chose|picked|rely on|insist on|require|expect|follow|write|name|format|lint|test|"
    r"deploy|build|ship|release|tag|squash|rebase|merge|pin|host|run|keep|avoid|"
    r"don'?t (?:use|do|allow|want|like|write|commit|push|merge|need)|do not (?:use|do|allow|"
    r"want|write|commit|push|merge|need)|never \w+|no longer \w+|dropped|ditched|gave up on|"
    r"(?:'ve |have )?given up on|stopped using|quit using)\b|"
    r"\b(?:our|the|my|one of (?:our|the|my)) (?:conventions?|standards?|rules?|policy|"
    r"policies|style|practices?|approach|process|workflow|guidelines?|house style|preference)"
    r"(?: (?:we|i) (?:follow|use|have|keep))?(?: (?:here|in (?:our|the|this) \w+))?"
    r" (?:is|are|says?)\b|"
    r"\bi (?:insist on|require|expect|prefer|like|love|hate|dislike|can'?t stand)\b|"
    r"\bis (?:our|the team'?s|my) (?:default|standard|preferred|go-to|chosen|only)\b|"
    r"\b(?:is|are) (?:not allowed|forbidden|banned|mandatory|required|compulsory|a must|"
    r"off-limits|off limits)\b",
    re.IGNORECASE,
)
_OBLIGATION = re.compile(
    r"\b(?:must|must not|mustn'?t|should (?:always|never|not|only)|shouldn'?t|shall|"
    r"need to be|needs to be|has to be|have to be|are to be|is to be|are required|"
    r"is required)\b",
    re.IGNORECASE,
)
_CHOICE = re.compile(
    r"\b(?:instead of|rather than|in place of|over|not)\s+`?[\w@./+#-]+|"
    r",\s*(?:not|never|no)\s+`?[\w@./+#-]+\s*\.?$",
    re.IGNORECASE,
)
# What a prohibition says not to do, when it says it in general: "dont regen lockfiles unless
# i ask", "never push to main", "no type: ignore ever".
_PROHIBITION = re.compile(
    r"^(?!(?:you )?(?:don'?t|do not|dont) (?:have|need) to\b)"
    r"(?:(?:you )?(?:don'?t|dont|do not|never|no need to|stop|quit|avoid|no more)\s+(?:ever\s+)?)"
    r"(?P<rest>.+)$|^no (?:more )?(?P<ban>[\w`'\":#./-]+(?: [\w`'\":#./-]+){0,3}) "
    r"(?:in|on|for|inside|under|anywhere|ever|evr|at all|please)\b",
    re.IGNORECASE,
)
_CONDITION_GENERAL = re.compile(
    r"\b(?:unless (?:i|we|you are|you'?re|asked|told)|without (?:asking|checking|a review|"
    r"approval|my ok)|(?:before (?:you|we|anyone) (?:commit|push|merge|deploy|release|open|"
    r"finish|ship|tag|cut|edit|change|touch|run|start)\w*|after (?:you|we|i) (?:commit|push|"
    r"merge|deploy|release|finish|change|edit)\w*|when(?:ever)? (?:you|we|i) (?:commit|push|"
    r"merge|deploy|release|add|change|edit|write|touch|open|create|bump|rename)\w*|"
    r"if (?:you|we) (?:commit|push|merge|deploy|add|change|edit|write|touch|need)\w*)"
    # "before I open the PR": this one, not a standing condition
    r"(?! (?:the|this|that|it|my|our|these|those)\b))\b",
    re.IGNORECASE,
)
# How the person wants an agent to work with them: true across their work.
_WORKING_STYLE = re.compile(
    r"\b(?:(?:your|the) (?:answers|replies|responses|explanations|tone|summaries)|"
    r"(?:answer|reply|respond|explain|talk|write to me|summari[sz]e) (?:in|briefly|concisely|"
    r"tersely|with|without|like)|emojis?|be (?:brief|concise|terse|direct|blunt)|"
    r"keep (?:(?:your|the|it|things) )?(?:answers?|replies|reply|responses?|explanations?|it|"
    r"things)? ?(?:short|brief|concise|tight|terse)|(?:short|brief|terse|concise) (?:answers|"
    r"replies|responses)|(?:don'?t|do not|stop|quit|no more) (?:explain|narrat|apologi|"
    r"summari[sz]|repeat|recap|walk(?:ing)? me through)\w*|skip the (?:preamble|explanations?|"
    r"summary|pleasantries|intro)|no (?:emojis|preamble|fluff|small talk|pleasantries)|"
    r"(?:british|american|us|uk|canadian|australian) (?:spelling|english)|"
    r"(?:ask|check with) me (?:first|before)|(?:don'?t|no need to|you don'?t need to|stop|quit) "
    r"(?:ask(?:ing)?|check(?:ing)? with) (?:me|first|for permission)|"
    r"(?:just )?go ahead and \w+(?: \w+){0,3},? (?:and )?(?:tell|let|ping|show) me "
    r"(?:after|afterwards|later|when)|tell me (?:after|afterwards)|show me the diff|"
    r"commit (?:msgs|messages|subjects|style)|subject lines?|pr descriptions|code comments)\b",
    re.IGNORECASE,
)

# -- facts ---------------------------------------------------------------------------------------

# A value one can check, of a kind people ask about later.
_TYPED_VALUE = re.compile(
    r"https?://\S+|\b[a-z][a-z0-9+.-]*://\S+|`[^`\n]{2,}`|"
    r"\bport \d{2,5}\b|(?<![\w.])[\w.-]+:\d{2,5}\b|\bon \d{4,5}\b|"
    r"\b[\w-]+(?:\.[\w-]+)*\.(?:internal|local|lan|corp|com|net|org|io|dev|cloud|svc|app|ai|"
    r"co|eu|us|sh)\b|(?:\d{1,3}\.){3}\d{1,3}|"
    r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+[a-z0-9-]*\b|\b[a-z]+\d+(?:-[a-z0-9]+)*\b|"
    r"(?<![\w/])(?![A-Z]{1,4}/[A-Z]{1,4}\b)~?\.{0,2}/?[\w.-]+/[\w./-]*\w|"
    r"\b[\w-]+\.(?:ya?ml|json|toml|py|ts|tsx|js|go|"
    r"rs|md|sh|sql|cfg|ini|env|lock|txt|csv|conf|rb|java|kt|tf|lua|proto)\b|"
    r"\bv?\d+\.\d+(?:\.\d+)*\b|\b(?:python|node|go|java|ruby|php|postgres(?:ql)?|redis|mysql|"
    r"ubuntu|debian|rust|terraform|kubernetes|k8s) \d+\b|"
    r"\b\d{1,2}:\d\d\b|\b\d{1,2} ?(?:am|pm)\b|\b\d+ ?(?:ms|s|sec|secs|seconds?|minutes?|mins?|"
    r"hours?|hrs?|h|days?|weeks?|gb|gib|mb|mib|kb|tb|%|percent|replicas?|workers?|threads?|"
    r"cores?|retries|attempts|pods?|nodes?|shards?|partitions?|instances?|connections?|rps|qps|"
    r"rpm|requests)\b|"
    r"\b(?:every|each) (?:day|night|week|month|hour|morning|evening|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|weekday)s?\b|\b(?:nightly|daily|weekly|monthly|hourly|"
    r"quarterly)\b|\bon (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b|"
    r"\b\d{4}-\d\d-\d\d\b|"
    r"\b(?:pr|issue|ticket|bug|incident|mr|pull request|story) ?#?\d+\b|#\d{2,}\b|"
    r"\b[A-Z][A-Z0-9]+-\d+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|@[\w.-]+|"
    r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b|(?<!\w)'[^'\n]{1,40}'(?!\w)|\"[^\"\n]{1,60}\"",
    re.IGNORECASE,
)
# Someone owning or looking after a thing: "Priya owns the billing exporter".
_OWNER = re.compile(
    r"(?:^|\b)(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:owns|maintains|looks after|is responsible "
    r"for|runs|is on-call for|is on call for|took over|takes over|now owns)\b|"
    r"\b(?:owned|maintained|run) by (?-i:@?[A-Z][\w.-]+)|\b(?:owner|maintainer|on-call|"
    r"point of contact|contact) (?:is|for \S+ is) (?-i:@?[A-Z][\w.-]+)",
    re.IGNORECASE,
)
_FACT_VERB = re.compile(
    r"\b(?:is|are|was|were|runs|run|listens|listen|lives|live|sits|sit|points|point|uses|"
    r"use|deploys|deploy|deployed|hosted|served|serves|owned|owns|maintained|maintains|belongs|"
    r"happens|happen|ships|ship|needs|need|requires|require|defaults|stores|store|writes|"
    r"reads|talks|connects|sends|publishes|backs up|rotates|expires|resets|starts|start|ends|"
    r"end|takes|take|has|have|goes|go|called|named|fixed|caused|resolved|closed|replaced|"
    r"moved|migrated|switched|changed|bumped|upgraded|renamed|relocated|set to|capped|limited|"
    r"costs|tracks|tracked|mirrors|mirrored|proxies|proxied|routes|routed|calls|"
    r"exposes|exposed|pins|pinned|targets|expects|emits|logs|cached|caches|reports|"
    r"runs on|lives in|lives on|sits on|sits in|is on|are on|is at|are at|is in|are in)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(
    r"\b(?:moved|migrated|switched|changed|bumped|upgraded|downgraded|renamed|relocated|"
    r"re-?pointed|replaced|swapped|retired|decommissioned|is now|are now|now (?:runs|lives|"
    r"points|listens|uses|sits|goes|is|are)|no longer|instead of|rather than|took over|"
    r"taken over|handed over|has been (?:moved|changed|bumped|upgraded|renamed)|from \S+ to)\b",
    re.IGNORECASE,
)
_MOVED_BY_US = re.compile(r"^(?:we|i)(?:'ve| have)? (?:moved|migrated|switched) ", re.I)
_MOVED = re.compile(
    r"^(?!(?:i|we|you|it|this|that|they)\b)(?:the |our )?[\w.@/'-]+(?: [\w.@/'-]+){0,5}? "
    r"(?:was |were |has been |have been |got |is being |are being )?(?:moved|migrated|switched|"
    r"changed|bumped|upgraded|downgraded|renamed|re-?pointed|relocated|shifted) (?:over )?to \S",
    re.IGNORECASE,
)
_SUBJECT_START = re.compile(r"^(?:the |our |a |an |my |their |its |this repo'?s |all )?\S")
_FIRST_PERSON = re.compile(r"^(?:i|i'm|i'?ve|i'?d|we|we're|we'?ve|you|you're|u)\b", re.I)
_TEMPORARY = re.compile(
    r"\b(?:until|till|through|thru)\s+(?:(?:the )?end of )?(?P<day>\d{4}-\d\d-\d\d)\b",
    re.IGNORECASE,
)
_TEMPORARY_STATE = re.compile(
    r"\b(?:frozen|freeze|paused|on hold|blocked|locked|closed|disabled|off|down|out|away|"
    r"suspended|embargo\w*|read-only|readonly|borrowed|on loan|loaned|lent|covering|cover|"
    r"on-call|on call|in charge|handles?|owns?|no (?:deploys|merges|releases|pushes)|"
    r"don'?t|do not|not|no|stays?|remains?|keep|use|is|are)\b",
    re.IGNORECASE,
)

# -- the person ---------------------------------------------------------------------------------

_ABOUT_ME = re.compile(
    r"^(?:i(?:'m| am) (?:a|an|the|on the|in the|part of|based|from|colou?r ?blind|"
    r"left-handed|right-handed|deaf|hard of hearing|dyslexic)\b|my name is|i work (?:at|for|"
    r"as|in)\b|i live\b|my (?:role|job|team|timezone|time zone|pronouns|email|github|handle|"
    r"manager|company|employer|shell|editor|os|laptop|machine|keyboard|layout|terminal|"
    r"(?:usual |default |main )?(?:mergetool|difftool|ide|browser|font|theme)|dotfiles|"
    r"setup) (?:is|are|lives?)\b|call me\b|i speak\b|i'?m based|i am based|"
    r"i(?:'m| am) on (?!it\b|that\b|this\b|call\b|vacation\b|leave\b|holiday\b|my way\b)"
    r"[\w.+-]+ (?:on (?:every|all|each)|everywhere|at home|at work))",
    re.IGNORECASE,
)
_HABIT = re.compile(
    r"^(?:(?:for|in|with|when|on) [\w' -]{2,40}?,? )?"
    r"i(?:'ve| have)? (?:always |never |usually |often |only |mostly |generally |normally )?"
    r"(?:use|prefer|like|love|hate|review|write|format|code|type|commit|push|merge|sign|"
    r"name|avoid|switched to|moved to|dropped|given up on|gave up on|stopped using|quit using|"
    r"manage|host|track|store|sync|back up|edit|keep|run|do my|read|reply|answer|work in|"
    r"work from|work on)\b",
    re.IGNORECASE,
)


# Malfunction told with "always"/"never": "the job never finishes", "the tests always fail on
# CI" (but "always run the smoke tests" and "tests must always pass" are rules).
_MALFUNCTION = re.compile(
    r"\b(?:always|never|keeps?|constantly|sometimes)\s+(?:\w+\s+)?(?:fails|breaks|crashes|"
    r"times out|hangs|finishes|works|loads|passes|returns|responds|completes|succeeds|starts|"
    r"builds|runs|shows|throws|errors)\b|"
    r"^(?!always\b|never\b|don'?t\b|do not\b)(?:(?!\b(?:must|should|need to|has to|have to)\b)"
    r".)*\b(?:always|never|keep|constantly|sometimes)\s+(?:fail|break|crash|time out|hang|"
    r"finish|work|load|succeed|complete|respond|throw|error)\b",
    re.IGNORECASE,
)
# "files touched: …", "git log --oneline: …", "since you keep asking: …": a frame and a colon.
_FRAMED = re.compile(r"^(?!no )[^:`]{2,80}:\s+\S", re.IGNORECASE)
# An order for now: what the agent is asked to do in this session.
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) (?:you|u|ya)|(?:i|we) (?:need|want|'d like|would like) "
    r"(?:you|u) to|let'?s|lets|let us|go ahead and|start (?:by|with)|first,? |then |next,? |"
    r"(?:fix|add|write|create|implement|refactor|run|check|show|explain|tell|find|update|"
    r"delete|remove|rename|look|investigate|debug|try|help|make|build|generate|review|"
    r"summari[sz]e|describe|list|open|read|print|install|upgrade|bump|revert|commit|push|"
    r"merge|deploy|test|move|change|set up|setup|configure|document|search|grep|figure out|"
    r"adjust|drop|point|clean up|reformat|migrate|reinstall|schedule|apply|carry on|continue|"
    r"proceed|do|go|start|stop|keep going|ping|tweak|patch|wire|hook up|cut|tag|release|ship|"
    r"publish|rerun|retry|pin|unpin|rip out|kick off|kick|port|tidy|clear|convert|simplify|"
    r"swap|rewrite|split|rotate|reprocess|rebuild|regenerate|amend|squash|rebase|pull|fetch|"
    r"sync|watch|raise|lower|increase|decrease|replace|restore|copy|paste|send|email|post|"
    r"call|hit|query|benchmark|profile|trace|reset|restart|reload|kill|enable|disable|"
    r"turn on|turn off|switch|mark|label|close|finish|wrap up|give|get|bring|put|take|grab|"
    r"fire|spin up|spin|draft|prep|prepare|ship|handle|sort out|dig|poke|ask|email|book)\b)",
    re.IGNORECASE,
)


# What a correction says is true instead: "aggregates dedupe on their own".
_PRESENT_STATEMENT = re.compile(
    r"^(?!(?:i|we|you|it|this|that|they|there)\b)(?:the |our |a |an )?[\w.@/'-]+"
    r"(?: [\w.@/'-]+){0,4}? (?:is|are|has|have|\w+(?<!s)s|can|cannot|can't|won't|doesn'?t|"
    r"don'?t)\b|^(?:the |our )?[\w-]+s (?!(?:was|were|had|did)\b)[a-z]+\b(?<!ed)",
    re.IGNORECASE,
)


def judge(clause: str, *, asked: bool = False, instead: bool = False) -> Judgement:
    """Whether `clause` (one clause of what a person typed, relative dates already resolved)
    is surely a durable statement. With `asked` (`wikimem remember`, an MCP write), the person
    asked for it to be kept: an imperative is a standing rule, and a plain statement with a
    verb is kept as a fact; a question, a guess or a task for now is still refused. With
    `instead`, it follows a retraction ("turns out X was wrong, …"): a plain present-tense
    statement there says what is true instead."""
    c = _POLITE.sub("", _LEAD.sub("", clause.strip())).strip(" ,;:-–—")
    c = _named_back(_IT_MATTERS.sub("", c))
    if len(c) < 6:
        return Silent("fragment")
    if _REDACTED.search(c) and (redacted_away(c) or not c.count("[REDACTED")):
        return Silent("redacted")
    if _QUESTION.search(c) and not _CONDITION_THEN.match(c):
        return Silent("question")
    if _HEDGE.search(c):
        return Silent("guess")
    if _CUT_OFF.search(c):
        return Silent("fragment: cut off")  # "… we should always use the."
    if _THERE.search(c):
        return Silent("fragment: leans on what came before")  # "run migrations there"
    if _REPORTED.search(c):
        return Silent("someone else's words")
    # a naming rule with its value says what it is about, whatever talk comes with it ("…
    # with '_m' to mark them as mentee variables", "consistency is key, so start … 'a_'")
    named_rule = _naming_rule(c)
    if _PLEASANTRY.search(c) or (_CHAT.search(c) and not _STANDING.search(c) and not named_rule):
        return Silent("chat")
    if _MALFUNCTION.search(c):
        return Silent("a problem being reported")
    if _OPINION.search(_WANTED_LEAD.sub("", _main_clause(c))) and not named_rule:
        return Silent("an opinion or an aim, not a claim")
    if _ANNOUNCED.search(c) and not re.search(r"'[^']+'|\"[^\"]+\"|`[^`]+`", c):
        return Silent("a rule announced or shown, not said")
    if _META.search(c):
        return Silent("talk about what will be said")
    if _FRAMED.match(c):
        # "All tests live under tests/, mirroring the package layout: tests/invoices/…": a
        # statement and its example; "files touched: …" or "status update: …" is a label
        head = c.split(": ", 1)[0]
        said = judge(head, asked=asked, instead=instead)
        if isinstance(said, Silent):
            return Silent("framed: what follows the colon is read on its own")
        return said
    found = _recognise(c, asked)
    if isinstance(found, Silent) and instead and _PRESENT_STATEMENT.match(c):
        found = Durable("fact", "what is true instead")
    if isinstance(found, Silent):
        return found
    head = c.split(", ", 1)[0]  # a clause after a comma may point back inside the sentence
    if not named_rule and (
        _DEICTIC_SUBJECT.match(c)
        or _DEICTIC_NOUN.search(c)
        or (
            (_DEICTIC_OBJECT.search(head) or _PRONOUN_OBJECT.search(head))
            and not _WORKING_STYLE.search(c)
        )
    ):
        return Silent("fragment: leans on what came before")
    if _NOW.search(c) and not (found.kind == "fact" and (found.change or found.until)):
        return Silent("for now")
    if found.kind == "rule" and _FREE_CHOICE.search(c):
        return Silent("leaves the choice to the agent")
    if found.kind == "rule" and _ONE_DAY.search(c) and not _STANDING.search(c):
        return Silent("for one day")  # "today" once its date is written: "dont merge on 11-20"
    if found.kind == "fact" and _MEASURED.search(c) and not _BOUND.search(c):
        return Silent("a measurement of the moment")
    if found.kind == "fact" and _PROBLEM.search(c) and not found.change:
        return Silent("a problem being reported")
    if found.kind == "rule" and _PROBLEM.search(c) and not _STANDING.search(c):
        return Silent("a problem being reported")
    return found


# What the project is on since a change: "we're on Node 20 now", "we are using pnpm now"
_ON_NOW = re.compile(
    r"^(?:we'?re|we are|we'?ve been) (?:now )?(?:on|using|running|onto) "
    r"(?!(?:it|this|that|them|a call|the call|the phone|my way|our way)\b)[^,;]{2,40}? now[.!]?$",
    re.IGNORECASE,
)
# A tool for a kind of work, said bare: "Use yarn for installs.", "Write tests with unittest."
# ("use the debugger for this" and "format it with black" are about now)
_NOT_KIND = r"(?!(?:the|this|that|it|these|those|my|your|his|her|them|now|today)\b)"
_TOOL = r"[\w@./+#-]+(?: [\w@./+#-]+)?"
_TOOL_FOR = re.compile(
    r"^(?:use|prefer|stick (?:to|with)) "
    + _NOT_KIND
    + _TOOL
    + r" (?:for|when) "
    + _NOT_KIND
    + r"(?:all |every |any |our )?[a-z][\w-]*(?: [a-z][\w-]*){0,2}[.!]?$|"
    r"^(?:write|format|lint|build|install|manage|package|bundle|type-?check|sign|indent) "
    + _NOT_KIND
    + r"(?:all |every |any |our )?[a-z][\w-]*(?: [a-z][\w-]*)? (?:with|using|via|through) "
    + _TOOL
    + r"[.!]?$",
    re.IGNORECASE,
)
# "write commit messages however", "name them whatever you like": no rule left
_FREE_CHOICE = re.compile(
    r"\b(?:however|whatever|any way|anyway|how ?ever) ?(?:you (?:like|want|see fit|prefer|"
    r"think best)|(?:is )?fine)?[.!]?$|\bas you see fit[.!]?$|\b(?:up to you|your call)[.!]?$",
    re.IGNORECASE,
)
# "just run migrations there and tell me after": where is said before
_THERE = re.compile(
    r"^(?:just |then |and |so )*(?:run|do|deploy|put|push|apply|test|keep|store|install|use)\b"
    r"[^,.;]{0,30}? there\b"
    r"(?! (?:is|are|was|were)\b)",
    re.IGNORECASE,
)
# A sentence that stops on a word that needs one after it
_CUT_OFF = re.compile(
    r"(?:^|\s)(?:the|a|an|my|our|your|their|its|to|of|with|into|than|because|if|use|using)"
    r"[\s.,;:…-]*$",
    re.IGNORECASE,
)
# A rule tied to one day ("don't deploy on 2026-11-20", "no merges in the week of …"); a rule
# that starts on a day ("from 2026-12-01 on, …", "starting on …") is not
_ONE_DAY = re.compile(
    r"(?<!\bstarting )(?<!\bbeginning )(?<!\bfrom )(?<!\bsince )(?<!\bafter )(?<!\bas of )"
    r"\b(?:on|for|in the week of) \d{4}-\d\d-\d\d\b(?! on\b)(?!,? (?:and )?onwards?\b)",
    re.IGNORECASE,
)
# A figure read off a run ("P99 is 1.84 s", "flash usage is at 71%"): true of that run; a
# budget or a limit on the same figure ("p99 must stay under 300 ms") is a rule
_MEASURED = re.compile(
    r"\b(?:p\d\d(?:\.\d+)?|latency|coverage|(?:flash|ram|cpu|memory|disk|heap|gpu) usage|"
    r"throughput|error rate|hit rate|build time|run ?time|(?:cold|warm) start)\b[^.;]{0,40}?"
    r"\b(?:is|was|are|were|at|sits at|hovers? (?:around|at)|came in at|of|now)\b[^.;\d]{0,15}"
    r"\d[\d.,]*\s*(?:%|ms|s|sec|secs|seconds|µs|us|ns|mb|gb|kb|k|rps|req/s|/s|minutes?|mins?)?",
    re.IGNORECASE,
)
_BOUND = re.compile(
    r"\b(?:budget|target|limit|threshold|max(?:imum)?|min(?:imum)?|slo|sla|must|should|needs? "
    r"to|has to|keep|under|below|above|at most|at least|no more than|alert|fail(?:s)? (?:if|when)|"
    r"gate|required?)\b",
    re.IGNORECASE,
)
# "when you're naming function arguments, always end the name with '_x'": a condition and
# what to do then, not a question
_CONDITION_THEN = re.compile(
    r"^(?:when|whenever|where|wherever|if)\s+(?!(?:is|are|was|were|do|does|did|can|could|should|"
    r"will|would|has|have|am|shall)\b)[^?]*,\s*\S[^?]*$",
    re.I,
)


def _naming_rule(c: str) -> bool:
    """`c` states a naming, decorator or import convention with its quoted value."""
    if "'" not in c and '"' not in c and "`" not in c:
        return False
    from wikimem.dream.supersession import convention_slot

    slot = convention_slot(c)
    return slot is not None and bool(slot[1])


# "It's important that you always import …": the weight put on a rule, not what it is about
_IT_MATTERS = re.compile(
    r"^(?:it'?s|it is) (?:really |very |so |also |absolutely )?(?:important|crucial|essential|"
    r"vital|key|critical|imperative|necessary|mandatory|a must)(?: (?:that|to)\b)?\s*",
    re.IGNORECASE,
)
# "For method names, start them with 'b_'": the pronoun is the kind of name the lead names
_NAMES_LEAD = re.compile(
    r"^(?:(?:for|as for|regarding|when it comes to|when (?:naming|declaring|defining|writing|"
    r"creating|adding)|with|on|about|now,? for)\s+)"
    r"(?:(?:the|your|our|all|any)\s+)?(?P<what>(?:[\w-]+\s+){0,2}?" + _ARTEFACT + r")\s*,\s*",
    re.IGNORECASE,
)


def _named_back(c: str) -> str:
    """`c` with "them"/"it" after a lead naming a kind of thing replaced by that kind."""
    m = _NAMES_LEAD.match(c)
    if not m:
        return c
    rest = c[m.end() :]
    what = m["what"]
    kind = re.sub(r"\s+names?$", "", what, flags=re.IGNORECASE)
    kind = kind[:-1] if kind.endswith("s") and not kind.endswith("ss") else kind
    swapped = re.sub(r"\btheir names\b", f"{kind} names", rest, count=1, flags=re.IGNORECASE)
    if swapped == rest:
        swapped = re.sub(r"\b(?:them|they|it)\b", what, rest, count=1, flags=re.IGNORECASE)
    if swapped == rest:
        return c
    return swapped[:1].upper() + swapped[1:]


def _recognise(c: str, asked: bool) -> Judgement:
    if _ABOUT_ME.match(c):
        return Durable("about", "about the person")
    from wikimem.dream.supersession import convention_slot

    # A naming, decorator or import convention with its value: "start method names with
    # 'a_'", "we're now ending attribute names with '_r'", "add the '@timer' decorator to all
    # your classes" — a slot and its value, however the sentence is dressed
    slot = convention_slot(c)
    if (
        slot is not None
        and (slot[1] or slot[0].startswith(("name-case", "name-contains")))
        and not (_QUESTION.search(c) and not _CONDITION_THEN.match(c))
        and not _HEDGE.search(c)
    ):
        return Durable("rule", "naming convention", change=bool(_CHANGE.search(c)))
    if _DONE.match(c) and not (_CHANGE.match(c) and _CHANGED_TO.search(c)):
        return Silent("what was done")
    if _PASSING.match(c) and not _STANDING.search(c):
        return Silent("a passing state")
    until = _TEMPORARY.search(c)
    if until and _TEMPORARY_STATE.search(c[: until.start()]):
        return Durable("fact", "temporary state", until=until["day"])
    if _STANDING.search(c) and _has_verb(c):
        return Durable("rule", "standing", change=bool(_CHANGE.search(c)))
    if _WORKING_STYLE.search(c):
        return Durable("rule", "working style")
    if _HABIT.match(c) and not _DEICTIC_OBJECT.search(c):
        return Durable("rule", "habit", change=bool(_CHANGE.search(c)))
    if _QUANTIFIED.search(c) and (
        _IMPERATIVE.match(c) or _OBLIGATION.search(c) or _WANTED.search(c)
    ):
        return Durable("rule", "convention over a kind of thing")
    if _GENERIC_SUBJECT.match(c) or _GENERIC_PASSIVE.match(c):
        return Durable("rule", "convention")
    if _STANCE.search(c) and _names_something(c):
        return Durable("rule", "stance", change=bool(_CHANGE.search(c)))
    if _CONDITION_GENERAL.search(c) and (
        _IMPERATIVE.match(c)
        or re.match(r"^(?:before|after|when|whenever|every time|each time|if|unless)\b", c, re.I)
    ):
        return Durable("rule", "conditional rule")
    if _ON_NOW.match(c) and _names_something(c):
        return Durable("fact", "change", change=True)  # "we're on Node 20 now"
    if _TOOL_FOR.match(c) and _names_something(c):
        return Durable("rule", "a tool for a kind of work", change=bool(_CHANGE.search(c)))
    if _REQUEST.match(c) and not asked:
        return Silent("a request for now")
    prohibition = _PROHIBITION.match(c)
    if prohibition and _general(prohibition["rest"] or prohibition["ban"] or ""):
        return Durable("rule", "prohibition")
    if _IMPERATIVE.match(c) and _CHOICE.search(c) and _names_something(c):
        return Durable("rule", "choice")
    if _OBLIGATION.search(c) and not _FIRST_PERSON.match(c) and _SUBJECT_START.match(c):
        return Durable("rule", "obligation")
    if not _FIRST_PERSON.match(c) and _FACT_VERB.search(_words_only(c)):
        if _OWNER.search(c):
            return Durable("fact", "owner")
        if _TYPED_VALUE.search(c) and _named_subject(c):
            return Durable("fact", "typed value", change=bool(_CHANGE.search(c)))
    if _CHANGE.match(c) and _CHANGED_TO.search(c):
        return Durable("fact", "change", change=True)
    if (_MOVED.match(c) or _MOVED_BY_US.match(c)) and (
        _names_something(c) or _TYPED_VALUE.search(c)
    ):
        return Durable("fact", "change", change=True)
    if asked:
        if _IMPERATIVE.match(c) or re.match(r"^(?:don'?t|do not|never)\b", c, re.I):
            return Durable("rule", "asked: a standing rule")
        if _has_verb(c) and len(re.findall(r"[A-Za-z]{3,}", c)) >= 3:
            return Durable("fact", "asked")
    return Silent("not a shape that is surely durable")


_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|use|uses|run|runs|go|goes|make|"
    r"makes|need|needs|take|takes|get|gets|set|sets|keep|keeps|end|ends|start|starts|add|"
    r"put|write|name|sign|format|push|commit|merge|include|follow|prefer|want|like|ask|tell|"
    r"show|give|explain|avoid|stop|quit|\w+ed|\w+s)\b",
    re.IGNORECASE,
)


_NOT_WORDS = re.compile(r"`[^`]*`|\S*[/\\]\S*|\S+\.\w{1,5}\b|\S+://\S+|'[^']*'|\"[^\"]*\"")


def _words_only(c: str) -> str:
    """`c` without code, paths, file names, URLs and quoted values: the words a verb is in."""
    return _NOT_WORDS.sub(" x ", c)


def _has_verb(c: str) -> bool:
    return bool(_VERB.search(c)) or bool(_IMPERATIVE.match(c))


# A name for something: a tool, a file, code, a product, a quoted value.
_NAMED = re.compile(
    r"`[^`]+`|(?<!\w)'[^']{1,40}'(?!\w)|\"[^\"]{1,60}\"|\b[\w-]+\.[a-z]{1,5}\b|[\w.-]+/[\w./-]+|"
    r"(?-i:(?<!^)\b[A-Z][\w+#.-]*\b)|\b[a-z]+[0-9][\w.-]*\b|\b[a-z][\w+#.]*-[\w+#.-]+\b|"
    r"\b(?:npm|pnpm|yarn|bun|pip|poetry|uv|pdm|conda|pytest|jest|vitest|mocha|black|prettier|"
    r"ruff|mypy|pyright|eslint|biome|tabs|spaces|docker|podman|neovim|vim|emacs|helix|zed|bash|"
    r"zsh|fish|git|squash|rebase|make|just|nix|brew|apt|kubectl|helm|terraform|ansible|"
    r"postgres|mysql|sqlite|redis|kafka|rabbitmq|celery|django|flask|fastapi|rails|react|vue|"
    r"svelte|angular|next|vite|webpack|esbuild|rollup|tsc|typescript|javascript|python|go|rust|"
    r"java|kotlin|swift|ruby|php|elixir|scala|snake_case|camelcase|pascalcase|kebab-case|"
    r"semicolons|docstrings|annotations|type hints|zod|pydantic|structlog|loguru|sentry|"
    r"datadog|grafana|prometheus|argo|argocd|flux|jenkins|buildkite|circleci|gradle|maven|"
    r"cargo|clippy|rustfmt|gofmt|golangci-lint|rubocop|pylint|flake8|isort|tox|nox|hatch|"
    r"pnpm|lerna|nx|turbo|bazel|pants|trello|jira|asana|linear|notion|slack|copilot|tabnine|"
    r"vscode|pycharm|intellij|gpg|ssh|yubikey|1password|bitwarden|vault|sops|age|unittest|"
    r"nose2?|hypothesis|playwright|cypress|selenium|storybook|deno|yapf|autopep8|ktlint|"
    r"detekt|spotless|swiftlint|swiftformat|cmake|ninja|meson|conan|vcpkg|pipenv|virtualenv|"
    r"venv|pyenv|nvm|volta|asdf|mise|direnv|httpx|axios|sqlalchemy|alembic|prisma|"
    r"drizzle|knex|sequelize|typeorm|liquibase|flyway|goose|sqlc)\b",
    re.IGNORECASE,
)


def _names_something(c: str) -> bool:
    return bool(_NAMED.search(c))


def _named_subject(c: str) -> bool:
    """The clause opens with a named thing (not a pronoun, not the person)."""
    return not _FIRST_PERSON.match(c) and not _DEICTIC_SUBJECT.match(c)


def _general(rest: str) -> bool:
    """What a prohibition forbids is said in general: a kind of thing, a named tool or code, or
    a condition that makes it standing ("unless I ask") — not "the migration" of today."""
    rest = rest.strip()
    if _CONDITION_GENERAL.search(rest) or _QUANTIFIED.search(rest):
        return True
    if _DEICTIC_OBJECT.search(rest) or re.search(
        r"\b(?:it|this|that|those|these|them)\b", rest, re.I
    ):
        return False
    if re.search(r"\b(?:anything|any)\b", rest, re.I) and not re.search(
        r"\b(?:under|in|inside|to|from|on|into|with)\b", rest, re.I
    ):
        return False  # "don't merge anything" (till when?) is about now
    words = rest.split()
    if not words:
        return False
    # "touch the migration": one definite thing of today; "use default exports", "regen
    # lockfiles", "push to main", "add `type: ignore`": a kind of thing or a named one
    if re.match(r"^\w+ (?:the|that|this|my|your|his|her) ", rest, re.I) and not _NAMED.search(rest):
        return False
    return len(words) >= 2


def instead_instruction(c: str) -> str:
    """`c`, said after a retraction, as the instruction it gives for what to use or do
    instead ("use rebase merges"; "pytest from now on" is "Use pytest from now on"), or ""
    when it is no such instruction ("fix the lock check" is a task)."""
    c = c.strip()
    if not _names_something(c) or _DEICTIC_OBJECT.search(c):
        return ""
    if _TOOL_NOW.match(c):
        return f"Use {c}"
    return c if _IMPERATIVE.match(c) and not _REQUEST_ONLY.match(c) else ""


# verbs that, said after a retraction, are tasks rather than what holds instead
_REQUEST_ONLY = re.compile(
    r"^(?:check|run|open|close|merge|push|commit|deploy|show|tell|give|answer|reply|respond|"
    r"review|explain|describe|summari[sz]e|ask|make|set|leave|add|rename)\b",
    re.IGNORECASE,
)
# "pytest from now on", "uv going forward"
_TOOL_NOW = re.compile(
    r"^[\w@./+#-]+(?: [\w@./+#-]+)? (?:from now on|going forward|from here on|now)\b",
    re.IGNORECASE,
)


def judge_remembered(clause: str, *, asked: bool = True, instead: bool = False) -> Judgement:
    """`judge` for what a session said after "remember" or "note that": kept as asked only
    when it names something (a tool, a file, a value); "remember, clarity is key" is not a
    claim however it is introduced."""
    said = judge(clause, instead=instead)
    if isinstance(said, Durable) or not asked or not _names_something(clause):
        return said
    if said.reason not in ("not a shape that is surely durable", "a request for now"):
        return said
    return judge(clause, asked=True, instead=instead)


def is_request(clause: str) -> bool:
    """Whether `clause` opens as an order for now ("kick off the export", "can u …")."""
    c = _POLITE.sub("", _LEAD.sub("", clause.strip())).strip()
    return bool(_REQUEST.match(c)) and not _STANDING.search(c) and not _WORKING_STYLE.search(c)


def is_question(clause: str) -> bool:
    """Whether `clause` asks something ("which port does …", "is the cache warm?")."""
    c = _POLITE.sub("", _LEAD.sub("", clause.strip())).strip()
    return bool(_QUESTION.search(c))


_ORDER = re.compile(
    r"^(?:(?:you )?(?:don'?t|dont|do not|never|no need to|stop|quit|avoid)\b|(?:"
    + _CONVENTION_VERB
    + r")\b(?! (?:is|are|was|were)\b))",
    re.IGNORECASE,
)


def addressed_to_agent(clause: str) -> bool:
    """Whether `clause` is said to the agent for then: a question, a request, or an order
    (positive or negative) that is no standing rule ("dont merge anything till I'm back")."""
    c = _POLITE.sub("", _LEAD.sub("", clause.strip())).strip()
    if _QUESTION.search(c) or is_request(c):
        return True
    return bool(_ORDER.match(c)) and isinstance(judge(c), Silent)
