"""The Numberlink uniqueness engine: a pipeline of strategies over one :class:`~.state.State`
(docs/numberlink-engine.md). :mod:`.pipeline` lists the strategies in order; each strategy is
its own module; :mod:`.tuning` holds every tuning constant."""
