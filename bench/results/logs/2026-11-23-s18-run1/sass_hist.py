import csv, gzip, sys, re, collections
rows=[]
with gzip.open(sys.argv[1],'rt') as f:
    r=csv.reader(f)
    kern=next(r); hdr=next(r)
    iE=hdr.index("Instructions Executed"); iS=hdr.index("Source"); iW=hdr.index("Warp Stall Sampling (All Samples)")
    for row in r:
        if len(row)<len(hdr) or not row[0].startswith("0x"): continue
        rows.append((row[0], row[iS].strip(), int(row[iE] or 0), int(row[iW] or 0)))
tot=sum(x[2] for x in rows); st=sum(x[3] for x in rows)
print("instructions", tot, "stall samples", st, "static", len(rows))
op=collections.Counter(); ops=collections.Counter()
for a,s,e,w in rows:
    m=re.match(r'(@!?U?P\w+\s+)?([A-Z0-9_.]+)', s)
    o=m.group(2) if m else s
    base=o.split('.')[0]
    op[o]+=e; ops[o]+=w
for o,c in op.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 60):
    print(f"{o:28s} {c:12d} {100*c/tot:6.2f}%  stall {100*ops[o]/st:6.2f}%")
