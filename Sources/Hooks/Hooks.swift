// Hooks: run user commands on ranging events (enter, exit, lost, found), argv only, event data in environment variables, off the ranging path.
