ALTER TABLE "knowledge_chunk_vector" DROP CONSTRAINT "knowledge_chunk_vector_pkey";--> statement-breakpoint
ALTER TABLE "knowledge_chunk_vector" ADD CONSTRAINT "knowledge_chunk_vector_pkey" PRIMARY KEY("seq","embedding_key");
