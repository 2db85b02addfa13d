import { Card, CloseButton, Highlight, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { FAQ_ENTRIES, filterFaq, filterWords } from "./faq";

export function HelpPage() {
  const [filter, setFilter] = useState("");
  const entries = filterFaq(FAQ_ENTRIES, filter);
  const words = filterWords(filter);

  return (
    <Stack gap="lg" maw={860}>
      <title>Help · Cyclebill</title>
      <div>
        <Title order={1} size="h2">
          Help
        </Title>
        <Text c="dimmed">Answers to common questions about billing with Cyclebill.</Text>
      </div>
      <TextInput
        label="Filter help topics"
        description="Shows the topics that contain every word you type."
        placeholder="For example: archive balance"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        rightSection={
          filter ? <CloseButton aria-label="Clear filter" onClick={() => setFilter("")} size="sm" /> : null
        }
      />
      {entries.length === 0 ? (
        <Text c="dimmed">No help topics match “{filter.trim()}”. Try fewer or different words.</Text>
      ) : (
        <Stack gap="md" component="section" aria-label="Help topics">
          {entries.map((entry) => (
            <Card
              key={entry.id}
              withBorder
              padding="lg"
              component="article"
              aria-labelledby={`faq-${entry.id}`}
            >
              <Title order={2} size="h4" mb="xs" id={`faq-${entry.id}`}>
                <Highlight component="span" highlight={words} inherit>
                  {entry.question}
                </Highlight>
              </Title>
              <Stack gap="xs">
                {entry.answer.split("\n\n").map((paragraph) => (
                  <Highlight key={paragraph.slice(0, 40)} highlight={words} size="sm">
                    {paragraph}
                  </Highlight>
                ))}
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
