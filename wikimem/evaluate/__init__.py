"""The memory evaluation (`wikimem eval`): does the next session get what is true now, and only
that?

Scripted multi-session cases are replayed through the installed hook command and `wikimem
dream` (after each scripted day) into ONE temporary home with six projects; then each case's
question is asked in a new session, in its project and client, and what the hook injects is
scored: per category, whether the answer is there, whether a superseded value is offered as
current, whether another project's notes bleed in, how much junk the notes hold.

Modules: `clients` (each harness's hook payloads), `cases` (what a case is), `sets` (the case
sets), `replay` (the home, the hooks, the dreams, the questions), `scoring` (the checkable
rules), `report` (a run scored, per category), `scripted_model` (a Messages API stand-in that
answers as a good model would), `cost` (what a run sends to a model), `runner` (one set, one
backend, one temporary home).
"""
