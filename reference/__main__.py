from reference.cli import main

raise SystemExit(main())
