import { Table } from "@mantine/core";
import "@mantine/core/styles/Table.layer.css";
import type { ReactNode } from "react";
import { useT } from "../../i18n/i18n.tsx";
import classes from "./Stats.module.css";

type FiguresTableProps = {
  caption: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
  testId: string;
};

/** A chart's figures as a table, folded under "Show as table": the same data for screen readers and keyboards. */
export function FiguresTable({ caption, columns, rows, testId }: FiguresTableProps) {
  const t = useT();
  return (
    <details className={classes.details} data-testid={testId}>
      <summary className={classes.summary}>{t("statistics.showTable")}</summary>
      <Table striped={false} withRowBorders verticalSpacing={4} fz="sm">
          <caption className={classes.visuallyHidden}>{caption}</caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column} scope="col">{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                {row.cells.map((cell, index) => (index === 0 ? <Table.Th key={index} scope="row" fw={400}>{cell}</Table.Th> : <Table.Td key={index}>{cell}</Table.Td>))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
    </details>
  );
}
