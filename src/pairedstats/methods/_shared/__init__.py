"""What every method shares: the registry of specs (:mod:`.registry`), the keyword
declarations (:mod:`.keywords`), the run skeleton (:mod:`.runs`) and the result base
(:mod:`.results`)."""
