"""The JSON of redist's commands as records: flat dicts that pandas.DataFrame(records) takes as they are.

A record holds the fields of the command's JSON (docs/ARCHITECTURE.md §7), its nested objects
flattened with dotted names as pandas.json_normalize spells them: `phases.total`, `params.N`,
`relabel.bytes_kept`, `predicted.comm`.
"""


def flattened(obj, prefix=""):
    """`obj` (a dict of the JSON) with every nested dict's fields brought up as `outer.inner`."""
    out = {}
    for key, value in obj.items():
        name = prefix + key
        if isinstance(value, dict):
            out.update(flattened(value, name + "."))
        else:
            out[name] = value
    return out


def simulation_records(run):
    """`redist simulate --json`: one record, the run."""
    return [flattened(run)]


def explanation_records(answer):
    """`redist explain --json`: one record per candidate, its fields beside the request's and the choice;
    for a 2-D request, ScaLAPACK's pdgemr2d last, as a candidate whose indexing and schedule are pdgemr2d."""
    request = {key: value for key, value in answer.items() if key not in ("candidates", "pdgemr2d")}
    candidates = list(answer["candidates"])
    if "pdgemr2d" in answer:
        beside = {key: value for key, value in answer["pdgemr2d"].items() if key != "predicted_over_choice"}
        candidates.append({"indexing": "pdgemr2d", "schedule": "pdgemr2d", "relabel": "none", **beside})
    return [flattened({**request, **candidate}) for candidate in candidates]


def scenario_records(reports):
    """`redist replay|sweep --json`: the records of every scenario's report, in order."""
    return [flattened(record) for report in reports for record in report["records"]]
