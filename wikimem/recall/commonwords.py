"""Words too common to name a project by themselves (`wikimem.recall.scope.named_projects`).

Contract: `COMMON` holds lower-case words a prompt uses without meaning a repository: everyday
English, and the generic words of software work that repositories are often named after (`api`,
`web`, `app`, `docs`, `server`, `frontend`, …). A project whose name is made of such words only is
named by a prompt when a word such as "repo" or "project" follows it; a name holding any other
word ("billing", "wikimem") is named by itself. Domain words (billing, payments, invoices) are
left out on purpose: a repository named after one is what a prompt using it most likely means.

Hook-path module: standard library only; one frozenset built at import (tens of microseconds),
imported only when a prompt contains a word of some project's name.
"""

from __future__ import annotations

_ENGLISH = """
a about above after again against all almost also always am among an and another any anything
are around as at away back be because been before being below best better between big both but
by call came can cannot case change come could day did different do does doing done down during
each early easy end enough even ever every example fact far few find first for found from full
general get give go going good got great had half hand hard has have having he help her here
high him his home how however i if important in inside instead into is it its just keep kind
know large last later least left less let life light like line little long look lot low made
main make many may me mean might more most move much must my name near need never new next no
not nothing now number of off often old on once one only open or order other our out over own
part people place point put quick quite rather real really right run same say second see seem
set should show side simple since small so some something soon start state still stop such sure
take than that the their them then there these they thing things think this those though three
through time to today together too top try turn two under until up upon us use used using very
want was way we well went were what when where which while who whole why will with without work
would year yes yet you your
able access action active add added address after age ago ahead air allow alone along already
answer anyone apart area ask auto available bad base basic become begin behind below big bit
black blue board body book born box break bring broken brown build built business buy care carry
center certain chance check child choose city class clean clear close cold color common complete
content control copy core correct cost count country course cover create cross current cut dark
date dead deal deep default design detail direct door double draw dream drive drop dry due easy
eat edge else empty enter error even event exact extra eye face fail fall family fast feel field
fill final fine fire fix flat flow fly focus follow food force form free friend front fun future
game gate given glass goal gone green ground group grow guess guide happy head hear heart heavy
hello hold hole hot hour house huge idea image info inner input issue item join jump key kill
land late lead learn level lie list live load local lock lost love machine map mark master match
matter meet member memory message middle mind minute miss mode money month morning mother mount
near network news night noise none normal note notes object offer office open outer output page
pair paper park pass past path pay peace person pick piece plain plan play please plus power
press pretty price print private problem process proof public pull push quiet race raise range
rate reach read ready reason record red release remote rest result return rich ride ring rise
road rock room root round rule safe sale save scale school score screen search season seat
secret section self sell send sense serve share shop short sign silent single site size skip
slow smart soft sound source space speak special speed spend split spring square stack staff
stage stand star static status step stock store story street strong study style summer sun
super support switch table talk task team tell term test text thank third tiny title touch
town track trade train tree trip true trust type unit upper user value view voice wait walk
wall watch water weather week weight white wide wild wind window winter wish word world write
wrong young zero
"""

# Generic words of software work: repositories are often named after them, and prompts use them
# all the time ("the api returns 500", "the web app").
_SOFTWARE = """
admin agent agents alpha analytics android api apis app apps archive asset assets auth backend
backup batch bench benchmark benchmarks beta blog bot bots bucket bundle cache cd cdn chart charts
chat ci cli client clients cloud cluster cms code codebase compiler component components config
configs configuration console container containers contrib cron css daemon dashboard data
database db demo demos deploy deployment deps desktop dev develop devops dist doc docker docs
documentation dotfiles e2e email engine env environment etl example examples experiment
experiments ext extension extensions feature features flag flags frontend git github gitlab go
graph graphql grpc handler handlers helm helper helpers hook hooks html http https index infra
infrastructure integration integrations ios java js json k8s kit lab labs lambda lib libs library
lint log logger logging login logs mail mobile mock mocks model models module modules monitor
monitoring monorepo node ops org package packages parser pipeline pipelines pkg platform
playground plugin plugins portal prod production project projects proto protos proxy py python
queue react readme repo repos repository rest router routes rpc runner runtime rust sandbox
schema scheduler scratch script scripts sdk server servers service services setup shared shell
spec specs sql src starter storage stream streams svc sync template templates temp terraform
testing tests theme themes tmp tool tooling tools ts ui util utils ux v1 v2 v3 vendor vue web
webapp website widget widgets wiki worker workers workflow workflows www yaml
"""

COMMON = frozenset((_ENGLISH + _SOFTWARE).split())
