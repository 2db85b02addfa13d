import { Button, Group, Pagination, Select, Text, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { INVALID_PAGE_MESSAGE, PAGE_SIZE_OPTIONS, pageCount, parsePageNumber } from "../../lib/paging";
import { countOf, type Noun } from "../../lib/plural";

export type TablePagerProps = {
  /** Rows across all pages. */
  total: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Omit to hide the rows-per-page choice. */
  onPageSizeChange?: (pageSize: number) => void;
  /** What the rows are, e.g. { one: "client" } ("1 client", "2 clients"). */
  noun: Noun;
  pageSizeOptions?: readonly number[];
};

/** Paging below a table: the range shown, rows per page, page buttons and a go-to-page box. */
export function TablePager({
  total,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  noun,
  pageSizeOptions = PAGE_SIZE_OPTIONS,
}: TablePagerProps) {
  const pages = pageCount(total, pageSize);
  const many = noun.other ?? `${noun.one}s`;
  const [target, setTarget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);

  const goTo = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = parsePageNumber(target, pages);
    if (next === null) {
      setError(INVALID_PAGE_MESSAGE);
      return;
    }
    setError(null);
    setTarget("");
    onPageChange(next);
  };

  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap" pt="sm">
      <Text size="sm" c="dimmed" pt={6} aria-live="polite">
        {total === 0 ? `No ${many}` : `${first}–${last} of ${countOf(total, noun.one, many)}`}
      </Text>
      <Group gap="md" align="flex-start" wrap="wrap">
        {onPageSizeChange ? (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed" component="label" htmlFor={`${many}-page-size`}>
              Rows per page
            </Text>
            <Select
              id={`${many}-page-size`}
              aria-label="Rows per page"
              size="xs"
              w={72}
              data={pageSizeOptions.map(String)}
              value={String(pageSize)}
              allowDeselect={false}
              onChange={(value) => {
                if (value) onPageSizeChange(Number(value));
              }}
            />
          </Group>
        ) : null}
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPageChange}
          getControlProps={(control) => ({ "aria-label": `${control} page` })}
          aria-label={`Pages of ${many}`}
        />
        <form onSubmit={goTo} noValidate>
          <Group gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              size="xs"
              w={120}
              aria-label="Go to page"
              placeholder="Go to page"
              inputMode="numeric"
              value={target}
              error={error}
              errorProps={{ role: "alert" }}
              onChange={(event) => {
                setTarget(event.currentTarget.value);
                setError(null);
              }}
            />
            <Button type="submit" size="xs" variant="default">
              Go
            </Button>
          </Group>
        </form>
      </Group>
    </Group>
  );
}
