"""The dream pass: consolidate recorded sessions into the wiki (DESIGN §7). See `runner`."""
