"""The player register (issue 36, 1): a person known across Games and editions, matched by
identity number, with the grades and titles he holds, his ratings on the lists the
federations publish, the points he has earned and where he has qualified. The rules read
what it knows through `career.py`; results carry what a Games awards into it."""
