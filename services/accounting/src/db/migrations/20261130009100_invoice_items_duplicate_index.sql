-- invoice_items_invoice (invoice_id, line_number) repeats the index of the table's own
-- UNIQUE (invoice_id, line_number): every reader it served is served by that one, and every item
-- written paid for both (issue 31: 3 index entries, about 290 bytes of WAL, per 3-item invoice).
DROP INDEX invoice_items_invoice;
