UPDATE jobs SET owner = $1 WHERE id = $2 AND owner IS NULL
