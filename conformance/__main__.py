from conformance.cli import main

raise SystemExit(main())
