"""Sets at scale: the batch engine (:func:`run`), its jobs (:class:`Job`), the results store
(:class:`Store`), progress as data (:class:`Progress`) and reports (:mod:`.report`).

>>> from puzzlesat.batch import Job, run
>>> [r["status"] for r in run([Job.generate("swap", (2, 1), seed=0, options={"difficulty": "easy"})])]
['generated']
"""

from .jobs import Job, jobs_from_text
from .progress import Progress
from .run import run
from .store import Store, StoreError

__all__ = ["Job", "Progress", "Store", "StoreError", "jobs_from_text", "run"]
