"""Change impact: the tests predicted for a change against those that ran or changed, and dead
code against never-executed functions."""
