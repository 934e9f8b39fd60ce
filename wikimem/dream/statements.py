"""Durable statements in what a person types, as standalone claims with a scope (docs/memory.md).

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

from wikimem.dream import dates, durable, paste

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
    r"now (?:please )?(?:fix|update|change)|go ahead and|then (?:fix|update))\b.*$|"
    # "…, so set the repo's local version to 3.12 with it": the task the statement was for
    r",\s*(?:so|and)\s+(?:(?:just|then|please)\s+)?(?:set|fix|add|update|make|run|change|"
    r"create|write|delete|remove|move|open|bump|pin|switch|use it to|do)\s+(?:the|it|that|this|"
    r"them|its|a|an|up|out)\b.*$",
    re.IGNORECASE,
)
_LEAD_FILLER = re.compile(
    r"^(?:(?:by the way|btw|fyi|fwiw|tbh|imo|imho|ngl|oh and|oh|also|and|so|ok(?:ay)?|alright|actually|just so you know|"
    r"likewise|similarly|in the same way|along the same lines|on top of that|in addition to that|"
    r"now|additionally|specifically|firstly|secondly|thirdly|lastly|finally|moreover|furthermore|"
    r"in addition|another thing|importantly|first|second|third|next|good|excellent|exactly|"
    r"indeed|absolutely|right|understood|"
    r"heads up|quick note|one more thing|for context|for your information|hey|hi|looks good|"
    r"great|thanks|thank you|cool|nice|perfect)[,:!.]?\s+)+",
    re.IGNORECASE,
)
_NORMATIVE_LEAD = re.compile(
    r"^(?:from now on|going forward|in (?:the )?future|as a rule|by default)[,:]?\s+", re.IGNORECASE
)
# A label before a colon that says what follows is a rule or a note, not part of it.
_LABEL_LEAD = re.compile(
    r"^(?:[\w' ,-]{0,40}\b(?:rules?|conventions?|notes?|things?|tips?|reminders?|context|"
    r"important|heads up|part \d+ of \d+)\b[\w' ,-]{0,40}):\s+(?=\S)",
    re.IGNORECASE,
)
_EXPLICIT = re.compile(
    r"^(?:please\s+)?(?:(?:always\s+)?remember|note|keep in mind|don'?t forget|for future reference|"
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
    r"release|ship|publish|rerun|retry|dry-run|pin|unpin|rip out|rip|kick off|port|tidy|route|"
    r"clear|convert|simplify|swap|rewrite|wrap|split|rotate|reprocess|rebuild|regenerate|amend|"
    r"squash|rebase|pull|fetch|sync|watch|raise|lower|increase|decrease|replace|restore|copy|"
    r"paste|send|email|post|call|hit|query|benchmark|profile|trace|reset|restart|reload|kill|"
    r"enable|disable|turn on|turn off|switch|mark|label|close|finish|wrap up|give|get|bring|put|"
    r"take|use"
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
    r"\b(?:i (?:never|didn'?t|did not|don'?t|do not) (?:say|said|mean|meant|ask|asked|know|knew|"
    r"think|thought|want|wanted|care|get it|understand)\b|i'?m seeing|i am seeing|i see|i'?m getting|i am getting|i got|i get|i'?m having|"
    r"i'?m trying|i am trying|i'?m working on|i'?m going to|i am going to|i'?ll|i will|i just|"
    r"i was|i'?m stuck|i am stuck|i'?m not sure|i am not sure|i'?m confused|i'?m lost|"
    r"let me|can'?t figure|no idea|i think|i guess|i believe|i wonder|not sure|"
    r"thanks|thank you|great job|nice work|awesome|ugh|argh|weird|strange|"
    r"i'?m in a (?:rush|hurry)|i am in a (?:rush|hurry)|i keep getting|i keep seeing|"
    r"(?:have|has)n'?t (?:\w+ )?(?:settled|decided|figured|chosen|picked))\b",
    re.IGNORECASE,
)
# "i'm wiring up the new webhook handler today": what the person is doing now, not a fact.
_DOING_NOW = re.compile(
    r"^(?:i'?m|i am|we'?re|we are) (?!using\b|based\b|from\b|on\b|in\b|going back\b|"
    r"switching\b|moving (?:to|off|away)\b|migrating\b|reverting\b|standardi[sz]ing\b|"
    r"dropping\b)(?:\w+ )?\w+ing\b",
    re.IGNORECASE,
)
_TRANSIENT_STATE = re.compile(
    r"\b(?:there'?s (?:a|an|some) (?:error|bug|issue|problem)|something (?:is|'s) (?:wrong|off|broken)|"
    r"is (?:failing|broken|down|flaky|wrong|outdated|out of date)|"
    r"are (?:failing|broken|flaky|wrong|outdated|out of date)|doesn'?t work|does not work|"
    r"not working|isn'?t working|maybe|perhaps|probably|might be|seems|looks like|right now|"
    r"at the moment|currently broken|for now|temporarily|this time|just this once|again|"
    r"keeps? \w+ing|still \w+ing|(?:is|are) (?:slow|slower|stuck|hanging|timing out|red)|"
    r"running out of|ran out of|the wrong)\b",
    re.IGNORECASE,
)
_NORMATIVE = re.compile(
    r"\b(?:always|never|only ever|instead of|rather than|prefer(?:s|red)?|(?:do not|don't|dont) (?:ever )?"
    r"(?:use|add|commit|push|run|call|import|write|put|edit|touch|mock|deploy|merge|rely)|"
    r"stop using|avoid|we use|i use|we're using|we are using|(?:we|i)(?:'ve| have)? switched to|"
    r"switched to|we moved to|we now use|i now use|make sure to|must not|must always|"
    r"should never|should always|only use|as a rule|our convention|the convention|no longer use|"
    r"we don'?t use|(?:we|i)(?:'ve| have)? dropped|no more|is the way to|the way to run|"
    r"^(?:(?:we'?re |i'?m |we are |i am )?(?:going|switching|moving|reverting) )?back to|"
    r"^revert(?:ing)? to|(?:don'?t|dont|do not|never) (?:ever )?(?!know|think|remember|see|"
    r"understand|care|mind)[a-z]+|(?:is|are|isn'?t|aren'?t) not allowed|(?:is|are) forbidden|"
    r"(?:that|this|it) stays|stays? (?:on|at|with|as)|goes in|go in|belongs? in|has to go)\b",
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
    # Who the person is ("I'm a backend engineer", "I'm based in Lisbon"), not what they are in
    # the middle of ("I'm halfway through splitting …", "I'm about to merge").
    r"^(?:i(?:'m| am) (?:a|an|the|on the|in the|part of|based|from|colou?r ?blind|left-handed|"
    r"right-handed|vegan|vegetarian|allergic|deaf|hard of hearing|dyslexic|\d+)\b|"
    r"my name is|i work (?:at|on|for|as|in)|i live|my (?:role|job|team|timezone|time zone|"
    r"pronouns|email|github|handle|manager|company|employer|shell|editor|os|laptop|machine|"
    r"keyboard|layout) (?:is|are)|call me|i speak|i'm based|i am based|i'm from|i am from)\b",
    re.IGNORECASE,
)
_HABIT = re.compile(
    r"^(?:(?:for|in|with|when|on) [\w' -]{2,40}?,? )?"  # "for merge conflicts I use meld"
    r"i(?:'ve| have)? (?:always |never |usually |often |only |mostly |generally |normally |now )?"
    r"(?:use|prefer|like|love|review|write|work|format|code|run|keep|take|type|block|read|"
    r"commit|push|merge|test|deploy|name|avoid|switched|dropped|moved to|do|given up on|"
    r"stopped using|quit using|manage|install|handle|host|track|store|sync|back up|edit|build)\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i prefer|i like|i love|i hate|i dislike|i always|i never|i usually|i tend to|my style|"
    r"for me|to me|with me|when you (?:answer|reply|respond|explain|write|talk)|your (?:answers|"
    r"replies|responses|explanations|tone)|(?:answer|reply|respond|explain|talk|write to me|"
    r"summari[sz]e) (?:in|briefly|concisely|tersely|with|without|like)|emojis?|be (?:brief|"
    r"concise|terse|direct)|keep (?:(?:your|the) )?(?:answers|replies|responses) (?:short|brief)|"
    r"i use \S+ everywhere)\b",
    re.IGNORECASE,
)
# How the person wants an agent to work with them: true across all their work, whatever words
# it comes in ("keep answers short", "quit explaining every step, just show the result").
_WORKING_STYLE = re.compile(
    r"\b(?:(?:your|the) (?:answers|replies|responses|explanations|tone|summaries)|"
    r"(?:answer|reply|respond|explain|talk|write to me|summari[sz]e) (?:in|briefly|concisely|"
    r"tersely|with|without|like)|emojis?|be (?:brief|concise|terse|direct|blunt)|"
    r"keep (?:(?:your|the|it|things) )?(?:answers?|replies|reply|responses?|explanations?|it|"
    r"things)? ?(?:short|brief|concise|tight|terse)|(?:short|brief|terse|concise) (?:answers|"
    r"replies|responses)|(?:don'?t|do not|stop|quit|no more) (?:explain|narrat|apologi|"
    r"summari[sz]|repeat|recap|walk(?:ing)? me through)\w*|just show (?:me )?(?:the )?(?:result|"
    r"diff|code|answer|output)s?|skip the (?:preamble|explanations?|summary|pleasantries|intro)|"
    r"no (?:emojis|preamble|fluff|small talk|pleasantries)|(?:show|ask|tell|check with|ping) me\b|"
    r"(?:british|american|us|uk|canadian|australian) (?:spelling|english)|spelling|"
    r"(?:iso|us|european) dates|date format|"
    r"run (?:it|them|that|things) by me|(?:in )?everything you write|when you write|"
    r"your (?:writing|commit messages|code comments|pull requests|prs|pr descriptions|shell)|"
    r"commit (?:msgs|messages|subjects|style)|subject lines?|pr descriptions|code comments|"
    r"bullets?(?: points?)? max|answer length|(?:answers?|replies|reply) (?:length|style|format)|"
    r"my (?:own |usual |default |favou?rite )?(?:mergetool|difftool|editor|ide|terminal|shell|"
    r"prompt|font|theme|keyboard|layout|browser|dotfiles|setup|workflow|machine|laptop|tmux|"
    r"tmux session|git ?config|aliases|calendar|pythons?|python installs?|node versions?|"
    r"toolchains?|runtimes?|sdks?|package manager))\b",
    re.IGNORECASE,
)
# A rule said to hold beyond this repository, wherever it sits in the sentence or its label: "in
# all my repos", "for every Python project of mine", "in my Go projects", "any Go service I
# own", "in general" (not a bare "everywhere": "strings use double quotes everywhere" is about
# this codebase).
_EVERYWHERE_PHRASE = (
    r"(?:(?:in|for|across|on|to) (?:all|every|each|any|evry) (?:of )?(?:my |our |the |your )?"
    r"(?:[\w+#.-]+ ){0,2}(?:projects?|repos?|repositor(?:y|ies)|codebases?|services?|apps?|"
    r"packages?|libraries|libs?|crates?|modules?|workspaces?)|"
    r"(?:all|every|each|any) (?:of )?(?:my|our) (?:[\w+#.-]+ ){0,2}(?:projects?|repos?|"
    r"repositor(?:y|ies)|codebases?|services?|apps?|packages?|libraries|crates?)|"
    r"(?:every|each|any) (?:[\w+#.-]+ ){0,2}(?:project|repo|repository|codebase|service|app|"
    r"package|library|crate) (?:of mine|i (?:own|write|maintain|start|touch|work on))|"
    r"in (?:my|our) (?:[\w+#.-]+ ){0,2}(?:projects|repos|repositories|codebases|services|apps)|"
    r"across (?:(?:all|my|our) )*(?:projects|repos|repositories|codebases|services)|"
    r"whatever the (?:project|repo)|no matter (?:the|which|what) (?:project|repo)|"
    r"in any (?:project|repo)|wherever i work|everywhere i (?:work|code|go)|across the board|"
    r"whenever i (?:code|work)|"
    # what the person owns, touches or makes, wherever it is: "for all my PRs", "every commit
    # I make", "anything under my name", "everything I touch", "any language", "not only here"
    r"(?:(?:for|in|on|to|across|with) )?all (?:of )?my (?:own )?[\w+#.-]+(?: [\w+#.-]+)?|"
    r"(?:every|each|any) [\w+#.-]+(?: [\w+#.-]+)? i (?:make|write|open|push|create|"
    r"touch|own|ship|start|sign|author|review|send)|anything (?:under|with) my name|"
    r"anything i (?:own|write|touch|make|ship|push)|everything i (?:touch|write|make|own|"
    r"ship|push|commit|do)|(?:any|every|each) (?:programming )?language|"
    r"not (?:just|only) (?:here|this (?:repo|project|one)|in this (?:repo|project))|"
    r"anywhere|wherever|on every machine|on all my machines)"
)
_EVERYWHERE = re.compile(r"\b" + _EVERYWHERE_PHRASE + r"\b", re.IGNORECASE)
# "In all my Python repos, type-check with mypy", "for every Python project of mine, use
# pyright": the phrase opens a standing rule (when a comma, or a subject or rule word, follows:
# in "any Go service I own should log in JSON" it is the subject).
_SCOPE_LEAD = re.compile(
    r"^" + _EVERYWHERE_PHRASE + r"(?: of (?:mine|ours)| (?:i|we) (?:own|write|maintain|start|"
    r"touch|work on))?\b(?:[,:;]\s+|\s+(?=(?:i|we|you|always|never|use|don'?t|do not|prefer|"
    r"avoid|run|keep|make sure)\b))(?=\S)",
    re.IGNORECASE,
)
# What ties a statement to this repository, whoever says it: "in this repo", "here", "for this
# service", today's task.
_PROJECT_ANCHOR = re.compile(
    r"\b(?:(?:in|for|of|on|to) (?:this|the current) (?:repo|repository|project|codebase|service|"
    r"app|package|library|crate|monorepo)|(?:in|for|of|on|to) the [\w.-]+ (?:repo|repository|"
    r"project|codebase|service|monorepo)\b|this (?:repo|repository|project|codebase|service|app)"
    r"(?:'s)?|here|in here|over here|today|tonight|this (?:week|sprint|morning|afternoon)|"
    r"right now|for now)\b",
    re.IGNORECASE,
)


# Said of a rule, these mean the same; said of a fact ("in general the API is slow") they do not.
_AS_A_RULE = re.compile(
    r"\b(?:in general|generally|as a (?:general )?rule|house rule)\b", re.IGNORECASE
)
# "generally, ask me before running anything with sudo": a rule for everywhere follows.
_RULE_LEAD = re.compile(
    r"^(?:in general|generally|as a (?:general )?rule|house rule)[,:;]\s+(?=\S)", re.IGNORECASE
)


def everywhere(text: str, rule: bool = True) -> bool:
    """Whether `text` says it holds beyond one repository (a person-level claim)."""
    return bool(_EVERYWHERE.search(text) or (rule and _AS_A_RULE.search(text)))


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
    r"\s+(?:right )?now(?=\s*[,.;!:()]|\s*$)|\s+anymore\b|\s+any more\b", re.IGNORECASE
)
_SAID_AS_CHANGE = re.compile(
    r"\b(?:now|anymore|any more|no longer|these days|nowadays|from now on|going forward)\b",
    re.IGNORECASE,
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
_PRONOUN_LEAD_WORD = re.compile(r"^(?:it|they)\b", re.IGNORECASE)
# What a retraction's words name as the thing: "we removed the loader retries" -> "the loader"
_RETRACTED_THING = re.compile(
    r"\b(?:the|our|that) ([a-z][\w-]*(?: [a-z][\w-]*)?)(?= (?:retries|retry|step|check|lock|"
    r"limit|rule|flag|cache|timeout|option|setting|feature|support|fallback|proxy|hook)\b)|"
    r"\b(?:the|our|that) ([a-z][\w-]*)\b",
    re.IGNORECASE,
)
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
_CLAUSE_SPLIT = re.compile(r"(?:,|;)\s+(?![^`]*`)(?![^(]*\))")
# A reason given inside a request states something: "…, and since in any Go service I own the
# logger is zerolog, use zerolog for it".
_REASON = re.compile(r"^(?:and |but |so )?(?:since|because|as|given that)\s+(?P<s>.+)$", re.I)
# "… and never commit …" starts a rule of its own; "runs offline and never inside the app" does not
_CONJ_RULES = re.compile(
    r"\s+(?:and|but)\s+(?=(?:always|never|don'?t|do not)\s+(?!in\b|inside\b|on\b|at\b|for\b|"
    r"with\b|when\b|by\b|from\b|to\b|during\b))",
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
    change: bool = False  # said as a change ("… now", "no longer …"): words `clean` drops
    until: str = ""  # a temporary state's last day (YYYY-MM-DD): not true after it
    said: str = ""  # the sentence it came from: evidence of what it replaces


_RULE_WORDS = ("always", "never")
# Real words one typo away from a rule word: read as typos they invert or garble a sentence
# ("only ever goes out with --check" is not "only never", "the newer client" not "never").
_NOT_TYPOS = frozenset(
    {"ever", "fever", "lever", "sever", "newer", "nevers", "evers", "allays", "always", "never"}
)


def _near(word: str, target: str) -> bool:
    """One typo away: a letter added, dropped, changed, or two neighbours swapped."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        i, j = [*diff, 0, 0][:2]
        return len(diff) == 2 and j == i + 1 and word[i] == target[j] and word[j] == target[i]
    short, long = sorted((word, target), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _fix_rule_typos(text: str) -> str:
    """ "alwyas show me the diff" is "always …": the words a rule turns on, read through a typo."""

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        for target in _RULE_WORDS:
            if word.lower() not in _NOT_TYPOS and _near(word.lower(), target):
                return target.capitalize() if word[0].isupper() else target
        return word

    return re.sub(r"\b[A-Za-z]{4,7}\b", fix, text)


def sentences(text: str) -> list[str]:
    text = _CODE_BLOCK.sub(" ", text)
    # list and quote markers open a line; a closing ">" is part of it ("feat/<ticket>-<slug>")
    parts = [p.strip(" \t").lstrip("-*>• \t") for p in _SENTENCE_SPLIT.split(text)]
    return [p for p in parts if 3 <= len(p) <= 600]


def clean(sentence: str, said_on: date | None = None) -> str:
    s = sentence.strip()
    # quotes around the whole sentence go; a quoted value at its end ('_q') stays whole
    if len(s) > 1 and (s[0], s[-1]) in (('"', '"'), ("'", "'"), ("“", "”")):
        s = s[1:-1]
    elif s[:1] in '"“' and s.count(s[0]) == 1:
        s = s[1:]
    s = re.sub(r"\s+", " ", s)
    s = _LEAD_FILLER.sub("", s)
    s = _NORMATIVE_LEAD.sub("", s)
    s = re.sub(r"^(?:please|pls|just)\s+", "", s, flags=re.IGNORECASE)
    # "(we're going) back to black for formatting" says what to use now
    s = re.sub(
        r"^(?:(?:we'?re|we are|i'?m|i am) )?(?:going |switching |moving |reverting )?back to\s+",
        "Use ",
        s,
        flags=re.IGNORECASE,
    )
    # "here" goes (the note's folder says where), but not in "not only here": that says more
    s = _HERE.sub(
        lambda m: (
            m.group(0)
            if re.search(r"\b(?:not only|not just|only|not)\s*,?\s*$", s[: m.start()], re.I)
            else ""
        ),
        s,
    )
    s = _NOW.sub("", s)
    s = re.sub(r",?\s+(?:please|pls|plz|thanks|thank you)[.!]?$", "", s, flags=re.IGNORECASE)
    s = re.sub(r",?\s+(?:please|pls|plz)\s+(?=\()", " ", s, flags=re.IGNORECASE)
    s = re.sub(
        r",?\s+(?:from now on|going forward|moving forward|from here on(?: out)?|for good)"
        r"(?=[.!,;]|$)",
        "",
        s,
        flags=re.IGNORECASE,
    )
    s = dates.resolve(s, said_on)
    s = s.strip(" ,;:-–—")
    s = re.sub(r"!{2,}$", "!", s)
    if len(s) > MAX_STATEMENT:
        s = s[: MAX_STATEMENT - 1].rsplit(" ", 1)[0] + "…"
    if s and s[0].islower():
        s = s[0].upper() + s[1:]
    if s and s[-1] not in ".!?…":
        s += "."
    return s


def _scope(kind: str, sentence: str, in_project: bool, said: str = "") -> str:
    """profile, project or general for a statement `sentence` (a clause of what was `said`,
    whose label and other clauses may carry a scope cue). Profile holds what is true of the
    person across work: facts about them, how they like to work with agents, and a rule they
    say holds beyond this repository. A statement tied to this repository ("in this repo",
    "here", today's task) stays in it, whatever pronoun it uses; so does anything else said in
    a project's session."""
    if kind == "about":
        return "profile"
    rule = kind in ("preference", "convention")
    if everywhere(sentence, rule) or (
        said and everywhere(said, rule) and not _PROJECT_ANCHOR.search(sentence)
    ):
        return "profile"
    if in_project and (_PROJECT_ANCHOR.search(sentence) or (said and _PROJECT_ANCHOR.search(said))):
        return "project"  # "rule for this repo: ask me first before …" is this repository's
    if in_project and rule:
        from wikimem.dream.supersession import convention_slot

        if convention_slot(sentence) is not None:
            return "project"  # how this code names and decorates things: the repository's
    if (
        _PERSONAL.search(sentence)
        or _HABIT.match(sentence)
        or _WORKING_STYLE.search(sentence)
        or (said and _WORKING_STYLE.search(said) and not _PROJECT_ANCHOR.search(said))
    ):
        return "profile"
    if in_project:
        return "project"
    return "profile" if kind in ("preference", "convention") else "general"


_STANDING = re.compile(
    r"\b(?:from now on|going forward|from here on(?: out)?|for good|always|every time)\b",
    re.IGNORECASE,
)
_HAS_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|use|uses|run|runs|go|goes|make|"
    r"makes|need|needs|take|takes|get|gets|set|sets|keep|keeps|\w+ed)\b",
    re.IGNORECASE,
)


def _classify(
    sentence: str,
    normative_lead: bool = False,
    scoped_lead: bool = False,
    asked_politely: bool = False,
) -> str | None:
    """preference/fact/about for a clause that is a statement, None for anything else."""
    if _ABOUT_ME.match(sentence):
        return "about"
    if _REMINDER.match(sentence) and not _CONDITION.search(sentence):
        return None  # "remember to run the linter" is a task for now
    bare = re.sub(r"^(?:please|pls)\s+", "", sentence, flags=re.IGNORECASE)
    if bare != sentence and _PERSONAL.search(bare) and not _REQUEST.match(bare):
        return "preference"  # "please keep answers short": how to work with the person
    if _HABIT.match(sentence) or _WORKING_STYLE.search(sentence):
        return "preference"
    if (
        (asked_politely or _STANDING.search(sentence))
        and not _REQUEST.match(sentence)
        and not _HAS_VERB.search(_STANDING.sub("", sentence))
    ):
        # "British spelling in docs and comments, pls", "plain imperative subject lines from
        # now on": a noun phrase said as a standing wish
        return "preference"
    if scoped_lead and not sentence.endswith("?"):
        return "preference"  # "in all my Python repos, type-check with mypy": a standing rule
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
        and not _PROBLEM.search(sentence)
        and not sentence.rstrip().endswith("!")
    ):
        return "fact"
    if (
        _DECLARATIVE.match(sentence)
        and not _NARRATIVE.search(sentence)
        and not _DEICTIC.match(sentence)
        and not _REPORT.search(sentence)
        and len(_content_words(sentence)) >= 3
    ):
        # Context the person gives before a request ("we build images with buildah, there's
        # no docker daemon on the runners"): a statement with a subject and a present-tense
        # verb, substantial enough to stand alone.
        return "preference" if _NORMATIVE.search(sentence) else "fact"
    return None


# "this function is too long", "it has to be done by friday": about what is in front of the
# agent now, not about the project
_DEICTIC = re.compile(
    r"^(?:this|that|these|those|it|its|it'?s|everything|something|nothing|anything|here)\b",
    re.IGNORECASE,
)
# A report of a problem or of how things stand right now, not a standing fact.
_REPORT = re.compile(
    r"\b(?:bugs?|broken|crash\w*|fails?|failing|failed|errors?|exceptions?|conflicts?|"
    r"too (?:long|slow|big|many|much|small)|forever|already|yet|sometimes|weird|ugly|messy|"
    r"fine|okay|ok|good|bad|wrong|returns? (?:[45]\d\d|an? error|none|null|nothing))\b",
    re.IGNORECASE,
)
# A problem being reported ("the API returns 500 when the body is empty", "the build takes
# forever"): what the session is about, not a fact to carry into the next one.
_PROBLEM = re.compile(
    r"\b(?:has a bug|is buggy|crash(?:es|ed|ing)?|throws|raises an?|returns? (?:[45]\d\d|an? "
    r"error|none|null|nothing)|takes forever|too (?:long|slow)|is broken|are broken)\b",
    re.IGNORECASE,
)
_DECLARATIVE = re.compile(
    r"^(?:(?:the|our|my|a|an|all|every|each|any|no)\s+)?"
    r"(?:(?:we|there'?s|theres|there is|there are)\s|[\w./'\"`()-]+(?:\s+[\w./'\"`()-]+){0,5}\s+"
    r"(?:is|are|has|have|goes|go|runs|run|lives|uses|needs?|starts?|ends?|sets?|stays?|expects?|"
    r"takes?|reads?|writes?|keeps?|holds?|calls?|points?|comes?|belongs?|lands?|sits?|"
    r"means|handles|owns|contains|requires|supports|depends|listens|talks|sends|stores|"
    r"publishes|ships|imports|exports|wraps|defaults|lives)\b)",
    re.IGNORECASE,
)


def _content_words(text: str) -> list[str]:
    stop = {
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "is",
        "are",
        "it",
        "we",
        "our",
        "my",
        "this",
        "that",
        "with",
        "so",
        "be",
        "there",
        "theres",
        "there's",
    }
    return [w for w in re.findall(r"[a-z][\w.-]+", text.lower()) if w not in stop]


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


# A clause that opens with its own subject and verb ("the new ledger svc grabbed 12111",
# "4000 clashed with grafana", "docker's out for that"); not a continuation ("same user",
# "never npm", "which …", "not 90").
_INDEPENDENT = re.compile(
    r"^(?!(?:which|that|who|where|when|not|never|no|only|and|but|or|so|then|since|because|as|"
    r"instead|rather|except|including|e\.g|i\.e)\b)"
    r"(?:(?:the|a|an|our|my|their|its|his|her|this|that|these|those)\s+)?"
    r"[\w.@/'-]+(?:\s+[\w.@/-]+){0,4}?(?:'s|'re)?\s*"
    r"(?:'s\b|\b(?:is|are|was|were|has|have|had|got|gets|\w+ed|runs|lives|listens|owns|uses|"
    r"goes|needs|takes|holds|wins|points|sits|keeps|does|says|means|stays|grabbed|took|broke|"
    r"went|came|ran|won|lost)\b)",
    re.IGNORECASE,
)
# "bake that into the template", "do it in the worker": an order about what was just said
_VERB_THAT = re.compile(r"^[a-z]+ (?:that|it|this|them|those)\b(?! (?:is|are|was|were)\b)", re.I)
_REPORTED_MOVE = re.compile(
    r"^(?:(?:they|someone|somebody|ops|platform|infra|it|the team|[A-Z][\w-]*)\s+)?"
    r"(?:'ve\s+|have\s+|has\s+|just\s+)?(?P<verb>moved|migrated|switched|changed|bumped|"
    r"re-?pointed|relocated|shifted)\s+(?:the\s+|our\s+)?(?P<what>[\w.@/-]+(?:\s+[\w.@/-]+){0,3}?)"
    r"\s+(?:over\s+)?to\s+(?P<to>\S+(?:\s+\S+){0,3})$",
    re.IGNORECASE,
)


def _rewrite_reported_move(clause: str) -> str:
    """ "they moved stripe-mock to 12140" → "Stripe-mock was moved to 12140": what is true
    afterwards, whoever did it."""
    m = _REPORTED_MOVE.match(_LEAD_FILLER.sub("", clause.strip()).rstrip("."))
    if not m or m["what"].lower() in ("it", "them", "that", "this", "us", "me"):
        return clause
    return f"{m['what']} was {m['verb'].lower()} to {m['to']}"


def _clauses(sentence: str, standing: bool = False) -> list[str]:
    """A sentence as its statements: requests and commentary cut off, rules and "my X is …"
    clauses taken apart, two verbs of one subject made two statements. `standing`: a lead
    ("from now on", "for all my PRs:") made the sentence a rule, whatever verb opens it."""
    whole = sentence
    # a request riding on a statement is cut off it, unless it is a standing rule itself
    # ("for method names, please start them with 'ud_'")
    tail = _CLAUSE_REQUEST.search(sentence)
    if tail is not None and isinstance(
        durable.judge(sentence[: tail.start()] + ", " + tail.group(0).lstrip(",;-–— ")),
        durable.Silent,
    ):
        sentence = sentence[: tail.start()]
    sentence = sentence.strip()
    pieces = [p.strip() for p in _CLAUSE_SPLIT.split(sentence) if p.strip()]
    if not pieces:
        return []
    if (
        len(pieces) > 1
        and not standing
        and _REQUEST.match(pieces[0])
        and not _RULE_PIECE.match(pieces[0])
        and isinstance(durable.judge(pieces[0]), durable.Silent)
    ):
        # "add request logging to the bff, and since … the logger is zerolog, use it"
        all_pieces = [p.strip() for p in _CLAUSE_SPLIT.split(whole) if p.strip()]
        return [m["s"] for p in all_pieces[1:] if (m := _REASON.match(p))]
    out = [pieces[0]]
    leading_condition = bool(
        re.match(r"^(?:before|after|when|whenever|if|once|every time)\b", pieces[0], re.IGNORECASE)
        # "for method names, start them with 'b_'": a frame that names what the rest is about
        or re.match(
            r"^(?:(?:now|so|and|also|additionally|great|good|ok),?\s+)*(?:for|as for|regarding|"
            r"when it comes to|when naming|with respect to|about|on)\s+[^,]{2,40}$",
            pieces[0],
            re.IGNORECASE,
        )
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
        if (
            (_REQUEST.match(task) or durable.is_request(task) or _VERB_THAT.match(task))
            and not _RULE_PIECE.match(task)
            and isinstance(durable.judge(task), durable.Silent)
        ):
            if _CONDITION.search(task) and _PRONOUN_OBJECT.search(task):
                out[-1] = f"{out[-1]}, {piece}"  # "so ping her before changing tokens"
                continue
            # A task for the agent now: it is no claim, and neither is what follows, unless it
            # is a reason stated for it ("since the logger is zerolog everywhere").
            reasons = [m["s"] for p in pieces[pieces.index(piece) + 1 :] if (m := _REASON.match(p))]
            out += [r for r in reasons if not _PRONOUN_LEAD.match(r)]
            break
        if (
            _RULE_PIECE.match(task)
            and not _PRONOUN_OBJECT.search(task)
            and not _NORMATIVE.search(out[-1])  # "use bun, don't use pnpm": one rule
        ):
            out.append(task)
            continue
        if (
            _OWN_CLAUSE.match(piece)
            or _HABIT.match(piece)
            or (
                _INDEPENDENT.match(piece)
                and not _NORMATIVE.search(out[-1])  # "never X, everything goes via Y": one rule
                and not re.match(r"(?:everything|all|every|each)\b", piece, re.I)
            )
        ):
            # a clause with a subject and a verb of its own is a statement of its own ("…,
            # the new ledger svc grabbed 12111"): judged apart, never glued to the one before
            out.append(piece)
            continue
        out[-1] = f"{out[-1]}, {piece}"
    split: list[str] = []
    for clause in (piece for c in out for piece in _CONJ_RULES.split(c)):
        clause = _rewrite_reported_move(_rewrite_reported_change(clause))
        m = _COMPOUND.match(clause)
        if m and not _CONDITION.search(m["first"]):
            subject = m["subject"]
            split += [f"{subject} {m['first']}", f"{subject} {m['second']}"]
        else:
            split += _split_affixes(clause)
    return split


_NAMES_WORDS = (
    r"(?:function |method )?(?:argument|parameter|variable|function|method|attribute|class|"
    r"constant|file|branch|test)(?:es|s)? names"
)
# "… start method names with 'o_' and end them with '_ud'": where a second naming rule begins
_SECOND_AFFIX = re.compile(
    r"[,\s]+(?:and|but)[,\s]+(?:(?:always|also|still|please|then|to|make sure(?: to)?|be sure to|"
    r"from now on|going forward)[,\s]+)*(?=(?:start|begin|end|finish|prefix|suffix|prepend|append|"
    r"include|use|add|import|decorate|annotate)\w*\b|(?P<shared>(?:(?:all|every|each|your|the|"
    r"for)\s+)*" + _NAMES_WORDS + r"\s+with\s+['\"`]))",
    re.IGNORECASE,
)


def _split_affixes(clause: str) -> list[str]:
    """Two naming rules said in one breath, as two statements: each its own slot, so that a
    later change of one replaces that one and leaves the other standing. The second is given
    the kind of name the first spoke of when it says "them" or names none ("all attribute names
    start with 's_' and end with '_at'")."""
    from wikimem.dream.supersession import QUOTED_VALUE, convention_slot

    quoted = [q.span() for q in QUOTED_VALUE.finditer(clause)]
    for m in _SECOND_AFFIX.finditer(clause):
        if any(a < m.start() < b for a, b in quoted):
            continue  # inside a quoted value
        first, second = clause[: m.start()].rstrip(" ,"), clause[m.end() :]
        kinds = _NAMES_PHRASE.findall(first)
        values = [q.group(0) for q in QUOTED_VALUE.finditer(first)]
        if m["shared"]:
            # "end all variable names with '_wr' and all function names with '_gn'": the
            # second says its kind and value, and shares the first's verb
            kind, value = _NAMES_PHRASE.search(second), QUOTED_VALUE.search(second)
            if len(kinds) != 1 or len(values) != 1 or kind is None or value is None:
                continue
            second = first.replace(kinds[0], kind.group(1), 1).replace(values[0], value.group(0))
        elif _AFFIX_THEM.search(second):
            if not kinds:
                continue
            second = _AFFIX_THEM.sub(rf"\g<1> {_escape_repl(kinds[-1])}", second, count=1)
        elif not _NAMES_PHRASE.search(second):
            if not kinds:
                continue
            second = f"{kinds[-1]} {second}"  # "end with '_at'": the names the first spoke of
        slots = convention_slot(first), convention_slot(second)
        if slots[0] is None or slots[1] is None or slots[0][0] == slots[1][0]:
            continue
        return [first, second[0].upper() + second[1:]]
    return [clause]


# Retraction by structure, not by stock phrase: a word that something stopped being true (or a
# "never mind" about it) and the thing it names. What is named is removed only where a claim
# is about it (`claims.retract`); with no such claim nothing is deleted.
_GONE: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # "the staging lock isn't a thing anymore", "the proxy isn't needed any more"
        r"^(?P<target>[^,;:]{3,80}?) (?:isn'?t|is not|aren'?t|are not|ain'?t) (?:a thing|needed|"
        r"used|required|relevant|around|in use|there|a requirement|a rule|true|the case)"
        r"(?: anymore| any more| now| these days)?(?:[,;:]\s*(?P<rest>.+))?$",
        # "the tests are not flaky anymore", "staging doesn't need a vpn any more"
        r"^(?P<target>[^,;:]{3,80}?) (?:isn'?t|is not|aren'?t|are not|doesn'?t|does not|don'?t|"
        r"do not) (?P<what>[\w -]{2,40}?) (?:anymore|any more)(?:[,;:]\s*(?P<rest>.+))?$",
        # "the canary step is gone", "the old vpn is dead now"
        r"^(?P<target>[^,;:]{3,80}?) (?:is|are|was|were|got|has been|have been) (?:gone|dead|"
        r"retired|deprecated|decommissioned|history|obsolete|removed|dropped|scrapped|killed|"
        r"shut down|turned off)(?: now| for good)?(?: (?:as of|since|from|on) [\w -]{2,30}?)?"
        r"(?:[,;:]\s*(?P<rest>.+))?$",
        # "walking back the httpx decision", "rolling back the move to podman"
        r"^(?:(?:we'?re|i'?m|we are|i am) )?(?:walking|walk|rolling|roll|reversing|reverse|"
        r"undoing|undo) back? ?(?:the |that |my |our |on )?(?P<target>[^,;:]{3,80}?)"
        r"(?: decision| change| move| switch| thing| idea| call)?(?:[,;:]\s*(?P<rest>.+))?$",
        # "forget the vale-on-everything thing", "scratch the 12 partitions rule"
        r"^(?:forget|scratch|disregard)(?: about)? (?:the |that |my |our |this )?"
        r"(?P<target>[^,;:]{3,80}?)(?: thing| rule| bit| part| idea| note| requirement| "
        r"convention| policy)?(?:[,;:]\s*(?P<rest>.+))?$",
        r"^(?:let'?s |let us |we can |you can )?(?:drop|ignore|kill|nix|ditch|scrap) (?:the |that "
        r"|my |our |this )(?P<target>[^,;:]{3,80}?) (?:thing|rule|bit|part|idea|note|requirement|"
        r"convention|policy)(?: (?:for|on|about|in) [^,;:]{2,40})?(?:[,;:]\s*(?P<rest>.+))?$",
        # "we got rid of the nightly rebuild", "scrap the release freeze rule"
        r"^(?:we |i )?(?:(?:have |'ve )?(?:got rid of|killed|retired|scrapped|ditched|"
        r"decommissioned)|scrap|ditch) (?P<target>[^,;:]{3,80}?)(?:[,;:]\s*(?P<rest>.+))?$",
        # "nvm what I said about the proxy port", "never mind about the proxy", "ignore my note on X"
        r"^(?:nvm|never ?mind|nevermind|disregard|ignore|drop|forget)(?: (?:what (?:i|we) (?:said|told you|"
        r"wrote)|my (?:note|comment|remark)|the (?:note|bit|part|thing)))? (?:about|on|re|regarding) "
        r"(?P<target>[^,;:]{3,80}?)(?:[,;:]\s*(?P<rest>.+))?$",
        # "never mind the tabs rule"
        r"^(?:never ?mind|nvm) (?:the |that |my |our )(?P<target>[^,;:]{3,80}?)(?: thing| rule| bit| "
        r"part| idea| note| requirement| convention| policy)?(?:[,;:]\s*(?P<rest>.+))?$",
        # "safari 15 is off the table", "that caveat doesn't apply any more"
        r"^(?:that |the )?(?P<target>[^,;:]{3,80}?)(?: caveat| rule| note| warning| constraint)? "
        r"(?:is|are) (?:off the table|moot|overkill|unnecessary|pointless|not needed|"
        r"not necessary|no longer (?:a (?:thing|concern|requirement|issue|"
        r"constraint)|needed|required|relevant|true|valid))(?:[,;:]\s*(?P<rest>.+))?$",
        r"^(?:that |the )?(?P<target>[^,;:]{3,80}?) (?:caveat|rule|note|warning|constraint|thing|bit) "
        r"(?:was|is) (?:from|about|for) (?:the )?(?:old|previous|former|earlier)\b[^,;:]*"
        r"(?:[,;:]\s*(?P<rest>.+))?$",
        r"^(?P<target>[^,;:]{3,80}?) (?:doesn'?t|does not|no longer) (?:apply|applies|hold|holds)"
        r"(?: anymore| any more)?(?:[,;:]\s*(?P<rest>.+))?$",
        # "finance dropped the two-approver requirement", "ops retired the old vpn"
        r"^(?:[\w-]+ ){1,2}(?:dropped|removed|scrapped|killed|lifted|waived|ditched|retired|"
        r"got rid of|decommissioned|abolished) (?:the |that |our |their )(?P<target>[^,;:]{3,80}?)"
        r"(?:[,;:]\s*(?P<rest>.+))?$",
        # "smtp-relay-1 gets switched off friday", "the old runner will be retired"
        r"^(?:the |that |our )?(?![^,;:]*\b(?:must|should|not|never|don'?t|always)\b)"
        r"(?P<target>[^,;:()]{3,80}?) (?:gets?|is getting|will be|is being) "
        r"(?:switched off|turned off|shut down|decommissioned|retired|removed|deleted|dropped)\b"
        r"[^,;:]*(?:[,;:]\s*(?P<rest>.+))?$",
        # "we've moved off pyenv, uv handles my pythons now"
        r"^(?:we'?ve |i'?ve |we have |i have |we |i )?(?:moved|migrated|switched|gone) "
        r"(?:off(?: of)?|away from) (?P<target>[^,;:()]{2,60}?)(?:[,;:]\s*(?P<rest>.+))?$",
        # "not using meld anymore, kdiff3 is my mergetool now"
        r"^(?:i'?m |we'?re |i am |we are )?(?:not using|no longer using|done with|off) "
        r"(?P<target>[^,;:]{2,80}?) (?:anymore|any more|now)(?:[,;:]\s*(?P<rest>.+))?$",
        # "let's not use unittest anymore", "we stopped using nock", "stop using moment.js"
        r"^(?:let'?s (?:not use|stop using|quit using)|stop using|quit using|(?:we|i) (?:stopped|"
        r"quit) using|(?:we|i) (?:don'?t|do not) use) (?P<target>[^,;:]{2,60}?)"
        r"(?: (?:anymore|any more|now))?(?:[,;:]\s*(?P<rest>.+))?$",
        # "no more release freeze", "no longer a staging lock"
        r"^(?:there'?s |we have )?no (?:more|longer(?: any)?) (?P<target>[^,;:]{3,80}?)"
        r"(?: anymore)?(?:[,;:]\s*(?P<rest>.+))?$",
    )
)
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
        if (
            _REQUEST.match(rest)
            and isinstance(durable.judge(rest), durable.Silent)
            and not durable.instead_instruction(rest)
        ):
            rest = ""  # "…, fix it" says what to do, not what is true
        if target and _IT_IS.match(rest):
            # "scratch that about the webhook var: it's X" says "the webhook var is X"
            rest = f"{target[0].upper()}{target[1:]} is {_IT_IS.sub('', rest)}"
        if target:
            return Statement("retraction", sentence, scope, target=target), rest
    return _gone(sentence, in_project)


def _gone(sentence: str, in_project: bool) -> tuple[Statement | None, str]:
    """A clause saying something stopped being true (`_GONE`), anywhere in a sentence."""
    scope = "project" if in_project else "profile"
    bare = sentence.rstrip(".!")
    for pattern in _GONE:
        m = pattern.match(bare)
        if m and not _QUESTION_START.match(bare):
            named = m["target"].strip()
            if "what" in pattern.groupindex and m["what"]:
                named = f"{named} {m['what'].strip()}"  # what it no longer is names the claim
            target = re.sub(r"^(?:the|that|our|my|this) ", "", named, flags=re.I)
            rest = _CORRECTION_LEAD.sub("", (m["rest"] or "").strip())
            if (
                (_REQUEST.match(rest) or _CLAUSE_TASK.match(rest))
                and isinstance(durable.judge(rest), durable.Silent)
                and not durable.instead_instruction(rest)
            ):
                rest = ""  # "…, remove the lock check from the deploy job" is a task
            return Statement("retraction", sentence, scope, target=target), rest
    return None, ""


_CLAUSE_TASK = re.compile(r"^(?:so |and |then |just )*(?:" + _TASK_VERBS + r")\b", re.IGNORECASE)


_NAMES_PHRASE = re.compile(r"\b(" + _NAMES_WORDS + r")\b", re.IGNORECASE)
_AFFIX_THEM = re.compile(
    r"\b((?:start|begin|prefix|end|finish|suffix)\w*)\s+(?:them|those|these)\b", re.IGNORECASE
)
_APPLIES_TO = re.compile(
    r"^(?:and |also )?(?:that|this|same|the same|it|these|those|all (?:of )?that|both|same deal)"
    r"(?:'s| is)?\s*(?:(?:goes|applies|holds|counts|stands|is true|is the rule)\s*"
    r"(?:for|to|in|across|everywhere|anywhere|wherever)|(?:for|in|across|everywhere|anywhere|"
    r"wherever))\b",  # "this is to maintain consistency" is a purpose, not a scope
    re.IGNORECASE,
)


def extract(
    text: str, said_on: date | None = None, in_project: bool = True, *, asked: bool = False
) -> list[Statement]:
    """The statements of `text`, only those surely durable (`durable.judge`). With `asked`
    (`wikimem remember`, an MCP write), the person asked for it to be remembered: an
    imperative is a standing rule and a plain statement a fact, but a question, a guess or a
    task for now is still no claim. What a prompt pasted (a page, a log, a quoted block) is
    not the person speaking (`paste.own_words`)."""
    out: list[Statement] = []
    if not asked:
        text = paste.own_words(text)
    text = _fix_rule_typos(text)
    if _QUOTED_CHAT.match(text.lstrip()):
        return out  # a pasted conversation: the digest keeps it, it is no one's claim here
    before = 0  # where the previous sentence's statements start in `out`
    named = ""  # the last kind of name a sentence spoke of ("method names")
    for raw in sentences(text):
        found = len(out)
        said_names = _NAMES_PHRASE.findall(raw)
        if not said_names and named and _AFFIX_THEM.search(raw):
            # "For method names, … Actually, end them with '_b' instead.": them = method names
            raw = _AFFIX_THEM.sub(rf"\g<1> {_escape_repl(named)}", raw, count=1)
        named = said_names[-1] if said_names else named
        if (
            _APPLIES_TO.match(_LEAD_FILLER.sub("", raw).strip())
            and everywhere(raw)
            and ":" not in raw
            and before < found
        ):
            # "… show me a plan first. that goes for every repo I work in": the sentence before
            # holds for all the person's work
            out[before:found] = [
                replace(
                    st, scope="profile", kind="preference" if st.kind == "convention" else st.kind
                )
                if st.kind != "retraction"
                else st
                for st in out[before:found]
            ]
            continue
        before = found
        _read_sentence(raw, out, said_on, in_project, asked)
        if len(out) == found:
            # Nothing read the usual way: what follows a frame and a colon may still hold
            _read_framed(raw, out, said_on, in_project, asked)
    # A statement that only said what a retraction replaces stays; the retraction's own words
    # are not a claim.
    return out


def _escape_repl(text: str) -> str:
    """`text` as a literal in a re.sub replacement."""
    return text.replace("\\", "\\\\")


def _read_sentence(
    raw: str, out: list[Statement], said_on: date | None, in_project: bool, asked: bool
) -> None:
    """Appends to `out` the statements of one sentence (see `extract`)."""
    said = raw  # a scope cue may sit in a label the sentence is read without
    sentence = _LEAD_FILLER.sub("", raw).strip()
    sentence = _LABEL_LEAD.sub("", sentence).strip()
    if not sentence:
        return
    retraction, rest = _retraction(sentence, in_project)
    replacing = False
    if retraction is not None:
        out.append(retraction)
        if not rest or _PRONOUN_LEAD.match(rest) or re.match(r"^that\b", rest, re.I):
            return
        if retraction.target:
            # "pg-stg-03 is retired, pg-stg-07 replaces it": "it" is what was retracted
            rest = re.sub(
                r"\b(replaces|replaced|replacing|instead of|supersedes|takes over from|"
                r"took over from) (?:it|them|that)\b",
                lambda m: f"{m.group(1)} {retraction.target}",
                rest,
                count=1,
                flags=re.IGNORECASE,
            )
        sentence, replacing = rest, True  # what is true instead: kept as said
    if sentence.endswith("?") or (_QUESTION_START.match(sentence) and "?" in raw):
        return
    if _PRONOUN_LEAD.match(sentence) and out and out[-1].kind == "retraction":
        # "we removed the loader retries entirely. It fails fast now.": "it" is what the
        # retraction named
        named = _RETRACTED_THING.search(out[-1].target)
        if named:
            thing = next(g for g in named.groups() if g)
            sentence = _PRONOUN_LEAD_WORD.sub(f"The {thing}", sentence, count=1)
            replacing = True
    elif _PRONOUN_LEAD.match(sentence) and out:
        # (a retraction's replacement is a statement too, so it can be continued)
        # "It fails fast now." goes on with the statement before it
        continuation = clean(sentence, said_on)
        if not _TRANSIENT_PERSON.search(sentence) and not _REQUEST.match(sentence):
            last = out[-1]
            joined = f"{last.text.rstrip('.')}; {continuation[0].lower()}{continuation[1:]}"
            out[-1] = replace(last, text=joined)
        return
    # A later clause may say something stopped being true ("mail moved to postmark,
    # smtp-relay-1 gets switched off friday"): a retraction of its own.
    pieces = _CLAUSE_SPLIT.split(sentence)
    if len(pieces) > 1:
        kept = pieces[:1]
        for piece in pieces[1:]:
            gone, _ = _gone(piece, in_project)
            if gone is not None:
                out.append(gone)
            else:
                kept.append(piece)
        sentence = ", ".join(kept)
    # what a retraction says is true instead is judged like anything else (its "platform
    # deleted bin/stagelock" is a report, not a claim), and is a change when it is one
    explicit = asked
    m = _EXPLICIT.match(sentence)
    if m:
        sentence, explicit = m["rest"].strip(), True
    # "remember, consistency and clarity are key" in a session is said, not asked: only what
    # names something is kept on the strength of "remember" (`durable.judge_remembered`)
    judge = durable.judge if asked or not explicit else durable.judge_remembered
    normative_lead = bool(_NORMATIVE_LEAD.match(sentence))
    bare_lead = _NORMATIVE_LEAD.sub("", sentence)
    scoped = _SCOPE_LEAD.match(bare_lead) or _RULE_LEAD.match(bare_lead)
    scoped_lead = scoped is not None
    sentence = _NORMATIVE_LEAD.sub("", sentence)
    lead = ""
    if scoped is not None:
        # read without the phrase, kept with it: the claim says where it holds
        lead, sentence = sentence[: scoped.end()], sentence[scoped.end() :]
        named = re.search(r"\b(?:all|every|each|any) (?:of )?(?:my|our) ([\w+#.-]+)", lead, re.I)
        if named:
            # "for all my PRs: open them as draft": "them" are the PRs
            sentence = re.sub(
                r"\b(?:them|they)\b", f"my {named.group(1)}", sentence, count=1, flags=re.I
            )
    # "no more squash merges, use rebase merges": what a retraction says to do instead is the
    # rule in its place, said as an instruction
    instead = durable.instead_instruction(sentence) if replacing else ""
    if instead:
        sentence = instead
    standing = normative_lead or scoped_lead or bool(instead)
    for part in _clauses(sentence, standing):
        judged = judge(
            dates.resolve(("from now on, " if standing else "") + part, said_on),
            asked=explicit,
            instead=replacing,
        )
        if isinstance(judged, durable.Silent):
            continue  # it stays in the session's digest, dated, where search finds it
        kind = {"rule": "preference", "fact": "fact", "about": "about"}[judged.kind]
        scope = _scope(kind, part, in_project, said)
        if kind == "preference" and scope == "project":
            kind = "convention"
        text_out = clean(lead + part if lead else part, said_on)
        lead = ""  # only the first clause follows the phrase
        if len(text_out) >= 8:
            change = replacing or judged.change or bool(_SAID_AS_CHANGE.search(part))
            out.append(
                Statement(
                    kind,
                    text_out,
                    scope,
                    explicit,
                    change=change,
                    until=judged.until,
                    said=dates.resolve(raw, said_on),
                )
            )


# "legal came back on the audit: 400 days of raw events, not 90", "this goes for every codebase
# of mine: named exports only in TS, no default exports": a short frame, a colon, and what holds,
# said without a verb. A colon far more often introduces a report or pasted output ("files
# touched: …", "docker ps shows: …", "my guess: …, not the db"), so only two shapes count: a
# frame that says the content holds across the person's repositories (the scope cue), or a
# value said as the correction of an older one (", not 90"). The frame is kept in the claim,
# since it says what the value is of.
_FRAME = re.compile(r"^(?P<frame>[^:`?]{3,100}?):\s+(?P<content>[^:]{3,240}?)[.!]?$")
_CONTRAST = re.compile(
    r"(?:,\s*(?:not|no|never)\s+\S|\bonly\b|^no\s+\w|\bno\s+\w+\s+\w+\b|"
    r"\b(?:instead of|rather than|over)\b|\s>\s)",
    re.IGNORECASE,
)
# A value that names a form to follow (a path or pattern, a placeholder, code).
_VALUE = re.compile(r"[\w-]+/[<\w]|<\w+>|`[^`]+`")
# "400 days of raw events, not 90": a number, then the number it replaces.
_VALUE_CORRECTED = re.compile(r"\d[\w:.-]*\b[^,;]*,\s*not\s+\d", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:guess|maybe|perhaps|thought|think|wonder|idea|probably|might)\b", re.I)
# What has a verb is read the usual way; a participle closing a clause ("only whitespace
# changed") reports what happened.
_FINITE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did)\b|\b\w{3,}ed\b(?=\s*(?:[,.;]|$))",
    re.IGNORECASE,
)


def _read_framed(
    raw: str, out: list[Statement], said_on: date | None, in_project: bool, asked: bool
) -> None:
    """ "legal came back on the audit: 400 days of raw events, not 90" is a framed statement;
    in "oh and since this keeps coming up: load tests only ever go against …" what follows the
    frame is a statement of its own, read by the usual rules. A hedge is neither."""
    m = _FRAME.match(_LEAD_FILLER.sub("", raw).strip())
    if m is None or _HEDGE.search(raw):
        return
    framed = _framed(m["frame"].strip(), m["content"].strip(), raw, said_on, in_project)
    if framed is not None:
        out.append(framed)
    else:
        _read_sentence(m["content"], out, said_on, in_project, asked)


def _framed(
    frame: str, content: str, raw: str, said_on: date | None, in_project: bool
) -> Statement | None:
    if not 2 <= len(frame.split()) <= 14:
        return None
    scoped = everywhere(frame) and (_CONTRAST.search(content) or _VALUE.search(content))
    if not scoped and not _VALUE_CORRECTED.search(content):
        return None
    if (
        _REQUEST.match(frame)
        or _REQUEST.match(content)
        or _QUESTION_START.match(frame)
        or _TRANSIENT_PERSON.search(content)
        or _PROBLEM.search(content)
        or _REPORT.search(content)
        or _FINITE.search(content)
        or len(_content_words(content)) < 2
    ):
        return None
    kind = "fact" if re.search(r"\d", content) else "preference"
    scope = _scope(kind, content, in_project, raw)
    if kind == "preference" and scope == "project":
        kind = "convention"
    text = clean(f"{frame}: {content}", said_on)
    return Statement(kind, text, scope, change=bool(_SAID_AS_CHANGE.search(raw)))
